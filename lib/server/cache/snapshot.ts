import 'server-only';
import { env } from '../config/env';

/**
 * One Redis read per view per interval, however many browser tabs poll it: concurrent
 * requests for the same view share one in-flight read, and its result is reused for
 * ASYNQLENS_SNAPSHOT_MS (default 1000 ms). A mutation clears everything, so the tab that made
 * a change sees it on its next read.
 */
const entries = new Map<string, { at: number; value: Promise<unknown> }>();
const MAX_ENTRIES = 500;

export function shared<T>(key: string, read: () => Promise<T>): Promise<T> {
  const ttl = env().ASYNQLENS_SNAPSHOT_MS;
  if (ttl <= 0) return read();
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && now - hit.at < ttl) return hit.value as Promise<T>;
  const value = read();
  // A failed read is not kept: the next request tries Redis again at once.
  value.catch(() => entries.delete(key));
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(key, { at: now, value });
  return value;
}

/** Forgets every cached view (after a mutation). */
export function invalidateShared(): void {
  entries.clear();
}
