import 'server-only';
import { z } from 'zod';
import { activeRerunSchema, type ActiveRerunDto, type RerunProgressDto } from '@/lib/contract/triage';
import { getRedis } from '../redis/client';

/**
 * The re-runs running now, with their latest progress, so the overview's banner keeps the type
 * and shows how far its re-run got instead of losing it while the failure scan recounts. Kept
 * in this process and in Redis under the console's own prefix, so every console replica behind
 * a load balancer sees a re-run another one runs.
 *
 * The Redis side is one hash, `asynqlens:{reruns}`, a field per running (queue, type) whose value
 * holds its own expiry: written when the re-run starts, then at most once a second as it
 * progresses and every 5 s while a batch takes long (HSET + PEXPIRE, one round trip, O(1)),
 * and deleted when it ends. A console that dies mid-run leaves a field readers ignore 15 s
 * after its last write, and the key itself expires then. Only a re-run writes it, and a re-run
 * is refused under read-only, so a read-only console never writes it (it reads it).
 */
export const RERUNS_KEY = 'asynqlens:{reruns}';
const TTL_MS = 15_000;
const REFRESH_MS = 5_000;
const WRITE_EVERY_MS = 1_000;

const stored = activeRerunSchema.extend({ expiresAt: z.string() });

const active = new Map<string, ActiveRerunDto>();
const fieldOf = (queue: string, taskType: string) => JSON.stringify([queue, taskType]);

/** Writes `entry` for other replicas; a failed write only hides it from them, never fails the re-run. */
async function publish(field: string, entry: ActiveRerunDto): Promise<void> {
  const value = JSON.stringify({ ...entry, expiresAt: new Date(Date.now() + TTL_MS).toISOString() });
  await getRedis().multi().hset(RERUNS_KEY, field, value).pexpire(RERUNS_KEY, TTL_MS).exec().catch(() => {});
}

export function trackRerun(queue: string, taskType: string) {
  const field = fieldOf(queue, taskType);
  const entry: ActiveRerunDto = { queue, taskType, startedAt: new Date().toISOString(), progress: null };
  active.set(field, entry);
  let written = Date.now();
  void publish(field, entry);
  const refresh = setInterval(() => {
    written = Date.now();
    void publish(field, entry);
  }, REFRESH_MS);
  refresh.unref();
  return {
    progress: (p: RerunProgressDto) => {
      entry.progress = p;
      if (Date.now() - written < WRITE_EVERY_MS) return;
      written = Date.now();
      void publish(field, entry);
    },
    end: async () => {
      clearInterval(refresh);
      if (active.get(field) !== entry) return;
      active.delete(field);
      // Sent after every earlier write on the same connection, so it lands last.
      await getRedis().hdel(RERUNS_KEY, field).catch(() => {});
    },
  };
}

/**
 * Every running re-run, this process' own and those other replicas publish. One round trip
 * (HGETALL of the one hash: O(running re-runs)); when Redis does not answer, this process' own.
 */
export async function activeReruns(): Promise<ActiveRerunDto[]> {
  const out = new Map<string, ActiveRerunDto>();
  const all = await getRedis().hgetall(RERUNS_KEY).catch((): Record<string, string> => ({}));
  const now = Date.now();
  for (const [field, raw] of Object.entries(all)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      continue;
    }
    const r = stored.safeParse(parsed);
    if (r.success && Date.parse(r.data.expiresAt) > now) out.set(field, { queue: r.data.queue, taskType: r.data.taskType, startedAt: r.data.startedAt, progress: r.data.progress });
  }
  // This process' entries are the freshest for its own re-runs.
  for (const [field, r] of active) out.set(field, { ...r });
  return [...out.values()].sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? '') || a.queue.localeCompare(b.queue));
}
