/**
 * Shared by the auth tests: users with cheap hashes (N=2^10 keeps each sign-in ~2 ms; the
 * format and code path are the production ones), cookies, and the app's mutation routes
 * listed from the file tree.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { hashPassword } from '@/lib/server/auth/scrypt-hash';
import { authConfig } from '@/lib/server/auth/config';
import { newSessionId, signSession, userFingerprint } from '@/lib/server/auth/session';
import { createSession } from '@/lib/server/auth/session-store';
import { getRedis } from '@/lib/server/redis/client';
import type { Handler } from '../../support/call-route';

export const SECRET = 'test-session-secret-0123456789abcdef';
export const PASSWORD = 'correct horse battery staple';
export const FAST = { N: 1024, r: 8, p: 1 };

export async function usersEnv(users: [name: string, role: string][]): Promise<string> {
  const entries = await Promise.all(users.map(async ([n, role]) => `${n}:${role}:${await hashPassword(PASSWORD, FAST)}`));
  return entries.join(',');
}

/**
 * A Cookie header value carrying a session signed with `secret`, recorded in the Redis of
 * REDIS_URL the way sign-in records one, for a user of the current configuration (an unknown
 * user gets a fingerprint that matches nobody).
 */
export async function sessionCookie(u: string, r: 'viewer' | 'operator', opts: { secret?: string; expInSeconds?: number } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + (opts.expInSeconds ?? 3600);
  const secret = opts.secret ?? SECRET;
  const user = authConfig().users.get(u);
  const sid = newSessionId();
  await createSession(getRedis(), { user: u, sid, expMs: exp * 1000 }, 3600_000);
  return `asynqlens_session=${signSession({ u, r, iat: now, exp, sid, fp: user ? userFingerprint(user, secret) : 'unknown-user' }, secret)}`;
}

export const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface RouteFile {
  /** `/api/queues/[qname]/bulk` */
  pattern: string;
  module: Record<string, unknown>;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : name === 'route.ts' ? [p] : [];
  });
}

/** Every app/api/**\/route.ts, imported. */
export async function apiRoutes(): Promise<RouteFile[]> {
  const root = join(import.meta.dirname, '..', '..', '..');
  const files = walk(join(root, 'app', 'api')).sort();
  return Promise.all(
    files.map(async (f) => ({
      pattern: `/${relative(join(root, 'app'), f).split(sep).slice(0, -1).join('/')}`,
      module: (await import(f)) as Record<string, unknown>,
    })),
  );
}

/** A concrete path and params for a pattern (`[qname]` → `q`, `[action]` → `run`…). */
export function fill(pattern: string): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const path = pattern.replace(/\[(\w+)\]/g, (_, name: string) => {
    params[name] = name === 'action' ? 'run' : name === 'qname' ? 'q' : `${name}-1`;
    return params[name];
  });
  return { path, params };
}

export const asHandler = (h: unknown): Handler => h as Handler;
