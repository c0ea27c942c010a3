/**
 * Shared by the auth tests: users with cheap hashes (N=2^10 keeps each sign-in ~2 ms; the
 * format and code path are the production ones), cookies, and the app's mutation routes
 * listed from the file tree.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { hashPassword } from '@/lib/server/auth/scrypt-hash';
import { signSession } from '@/lib/server/auth/session';
import type { Handler } from '../../support/call-route';

export const SECRET = 'test-session-secret-0123456789abcdef';
export const PASSWORD = 'correct horse battery staple';
export const FAST = { N: 1024, r: 8, p: 1 };

export async function usersEnv(users: [name: string, role: string][]): Promise<string> {
  const entries = await Promise.all(users.map(async ([n, role]) => `${n}:${role}:${await hashPassword(PASSWORD, FAST)}`));
  return entries.join(',');
}

/** A Cookie header value carrying a session signed with `secret`. */
export function sessionCookie(u: string, r: 'viewer' | 'operator', opts: { secret?: string; expInSeconds?: number } = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return `asynqlens_session=${signSession({ u, r, iat: now, exp: now + (opts.expInSeconds ?? 3600) }, opts.secret ?? SECRET)}`;
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
