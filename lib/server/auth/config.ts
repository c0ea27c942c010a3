import 'server-only';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { entriesFromEnv, entriesFromFile, parseUsers, ROLES, UserConfigError, type ConfiguredUser, type Role } from './users';
import type { BlockList } from 'node:net';
import { brandErrorClass } from '@asynqlens/asynq/error-brand';
import { parseTrustedProxies } from './client-address';

export type AuthMode = 'login' | 'proxy' | 'none';

export interface ProxyConfig {
  userHeader: string;
  roleHeader: string | null;
  operators: ReadonlySet<string>;
  defaultRole: Role;
  secret: string;
  secretHeader: string;
}

export interface AuthConfig {
  mode: AuthMode;
  users: ReadonlyMap<string, ConfiguredUser>;
  sessionSecret: string;
  sessionHours: number;
  /** A session unused for this long ends (ASYNQLENS_SESSION_IDLE_MINUTES). */
  sessionIdleMinutes: number;
  /** Peers whose X-Forwarded-For is believed (ASYNQLENS_TRUSTED_PROXIES). */
  trustedProxies: BlockList;
  cookieSecure: 'auto' | 'true' | 'false';
  /** '' or `/prefix`: the cookie's Path and the login redirect live under it. */
  basePath: string;
  proxy: ProxyConfig | null;
  metricsToken: string | null;
}

/** Authentication is configured in a way that cannot work; the message names the variable. */
export class AuthConfigError extends Error {
  override readonly name = 'AuthConfigError';
}
// Cached on globalThis below and read by proxy.ts and the routes, each with its own copy of this class.
brandErrorClass(AuthConfigError, 'AuthConfigError');

// On globalThis: proxy.ts and the route handlers are separate bundles in one process, and a
// random secret must be the same for both (and survive hot reloads in development).
const g = globalThis as unknown as { asynqlensAuth?: { key: readonly (string | undefined)[]; config: AuthConfig | AuthConfigError }; asynqlensSessionSecret?: string };

const VARS = [
  'ASYNQLENS_AUTH', 'ASYNQLENS_USERS', 'ASYNQLENS_USERS_FILE', 'ASYNQLENS_SESSION_SECRET', 'ASYNQLENS_SESSION_HOURS',
  'ASYNQLENS_COOKIE_SECURE', 'ASYNQLENS_BASE_PATH', 'ASYNQLENS_PROXY_USER_HEADER', 'ASYNQLENS_PROXY_ROLE_HEADER',
  'ASYNQLENS_PROXY_OPERATORS', 'ASYNQLENS_PROXY_DEFAULT_ROLE', 'ASYNQLENS_PROXY_SECRET', 'ASYNQLENS_PROXY_SECRET_HEADER',
  'ASYNQLENS_METRICS_TOKEN', 'ASYNQLENS_SESSION_IDLE_MINUTES', 'ASYNQLENS_TRUSTED_PROXIES', 'ASYNQLENS_PEER_FROM_LAUNCHER',
] as const;

const USERS_FILE_AT = VARS.indexOf('ASYNQLENS_USERS_FILE');

const v = (name: (typeof VARS)[number]): string => process.env[name]?.trim() ?? '';

function fileStamp(file: string): string {
  try {
    const s = statSync(file);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return 'missing';
  }
}

function parseMode(): AuthMode {
  const mode = v('ASYNQLENS_AUTH') || 'login';
  if (mode === 'login' || mode === 'proxy' || mode === 'none') return mode;
  throw new AuthConfigError(`ASYNQLENS_AUTH must be login, proxy or none (got ${JSON.stringify(mode)})`);
}

function loadUsers(): ReadonlyMap<string, ConfiguredUser> {
  const entries = entriesFromEnv(process.env.ASYNQLENS_USERS ?? '');
  const file = v('ASYNQLENS_USERS_FILE');
  if (file) {
    let text: string;
    try {
      text = readFileSync(/*turbopackIgnore: true*/ file, 'utf8');
    } catch (err) {
      throw new AuthConfigError(`ASYNQLENS_USERS_FILE: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
    entries.push(...entriesFromFile(text, file));
  }
  try {
    return parseUsers(entries);
  } catch (err) {
    if (err instanceof UserConfigError) throw new AuthConfigError(err.message);
    throw err;
  }
}

function sessionSecret(mode: AuthMode): string {
  const secret = process.env.ASYNQLENS_SESSION_SECRET ?? '';
  if (secret !== '') {
    if (secret.length < 32) throw new AuthConfigError(`ASYNQLENS_SESSION_SECRET must be 32 or more characters (got ${secret.length})`);
    return secret;
  }
  if (!g.asynqlensSessionSecret) {
    g.asynqlensSessionSecret = randomBytes(32).toString('base64url');
    if (mode === 'login') {
      console.warn('[asynqlens] ASYNQLENS_SESSION_SECRET is not set: using a random secret, so sessions end on restart and replicas do not share them');
    }
  }
  return g.asynqlensSessionSecret;
}

function parseHours(): number {
  const raw = v('ASYNQLENS_SESSION_HOURS') || '12';
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 24 * 366) throw new AuthConfigError(`ASYNQLENS_SESSION_HOURS must be a number of hours above 0 and at most 8784 (got ${JSON.stringify(raw)})`);
  return n;
}

function parseIdleMinutes(hours: number): number {
  const raw = v('ASYNQLENS_SESSION_IDLE_MINUTES') || '60';
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > hours * 60) {
    throw new AuthConfigError(`ASYNQLENS_SESSION_IDLE_MINUTES must be a number of minutes above 0 and at most the session's ${hours * 60} (got ${JSON.stringify(raw)})`);
  }
  return n;
}

function trustedProxies(): BlockList {
  try {
    return parseTrustedProxies(v('ASYNQLENS_TRUSTED_PROXIES'));
  } catch (err) {
    throw new AuthConfigError(err instanceof Error ? err.message : String(err));
  }
}

function parseSecure(): AuthConfig['cookieSecure'] {
  const raw = v('ASYNQLENS_COOKIE_SECURE') || 'auto';
  if (raw === 'auto' || raw === 'true' || raw === 'false') return raw;
  throw new AuthConfigError(`ASYNQLENS_COOKIE_SECURE must be auto, true or false (got ${JSON.stringify(raw)})`);
}

function parseBasePath(): string {
  const raw = v('ASYNQLENS_BASE_PATH').replace(/\/+$/, '');
  if (raw !== '' && !/^\/[^\s?#;,]*$/.test(raw)) throw new AuthConfigError(`ASYNQLENS_BASE_PATH must start with / (got ${JSON.stringify(raw)})`);
  return raw;
}

function parseRole(name: string, raw: string): Role {
  if ((ROLES as readonly string[]).includes(raw)) return raw as Role;
  throw new AuthConfigError(`${name} must be viewer or operator (got ${JSON.stringify(raw)})`);
}

function parseProxy(): ProxyConfig {
  const userHeader = v('ASYNQLENS_PROXY_USER_HEADER').toLowerCase();
  if (!userHeader) throw new AuthConfigError('ASYNQLENS_AUTH=proxy needs ASYNQLENS_PROXY_USER_HEADER (the header your proxy sets to the user name, e.g. x-forwarded-user)');
  const secret = process.env.ASYNQLENS_PROXY_SECRET ?? '';
  if (secret.length < 16) {
    throw new AuthConfigError(`ASYNQLENS_AUTH=proxy needs ASYNQLENS_PROXY_SECRET of 16 or more characters (got ${secret.length}): the proxy sends it to prove the identity header came from it`);
  }
  return {
    userHeader,
    roleHeader: v('ASYNQLENS_PROXY_ROLE_HEADER').toLowerCase() || null,
    operators: new Set(v('ASYNQLENS_PROXY_OPERATORS').split(',').map((s) => s.trim()).filter(Boolean)),
    defaultRole: parseRole('ASYNQLENS_PROXY_DEFAULT_ROLE', v('ASYNQLENS_PROXY_DEFAULT_ROLE') || 'viewer'),
    secret,
    secretHeader: v('ASYNQLENS_PROXY_SECRET_HEADER').toLowerCase() || 'x-asynqlens-proxy-secret',
  };
}

function build(): AuthConfig {
  const mode = parseMode();
  const base = {
    mode,
    users: new Map<string, ConfiguredUser>(),
    sessionSecret: '',
    sessionHours: 12,
    sessionIdleMinutes: 60,
    trustedProxies: trustedProxies(),
    cookieSecure: 'auto' as const,
    basePath: parseBasePath(),
    proxy: null,
    metricsToken: process.env.ASYNQLENS_METRICS_TOKEN || null,
  };
  if (mode === 'none') return base;
  if (mode === 'proxy') return { ...base, proxy: parseProxy() };
  const users = loadUsers();
  if (users.size === 0) {
    throw new AuthConfigError(
      'ASYNQLENS_AUTH is login (the default) but no users are configured: set ASYNQLENS_USERS (name:role:hash, …) or ASYNQLENS_USERS_FILE ' +
        '(make a hash with `npm run hash-password`), or ASYNQLENS_AUTH=proxy behind an authenticating proxy, or ASYNQLENS_AUTH=none to turn authentication off',
    );
  }
  const sessionHours = parseHours();
  return { ...base, users, sessionSecret: sessionSecret(mode), sessionHours, sessionIdleMinutes: parseIdleMinutes(sessionHours), cookieSecure: parseSecure() };
}

/** Whether the variables and the users file are still those `key` was taken from; allocates nothing. */
function unchanged(key: readonly (string | undefined)[]): boolean {
  for (let i = 0; i < VARS.length; i++) if (process.env[VARS[i]!] !== key[i]) return false;
  const file = key[USERS_FILE_AT]?.trim();
  return !file || fileStamp(file) === key[VARS.length];
}

/**
 * The authentication settings, checked. Re-read when the variables or the users file change
 * (17 environment reads, plus one stat when a users file is in use, per call: proxy.ts and
 * route() each call it once per request), so removing a user or changing a role takes effect
 * at once. Throws {@link AuthConfigError} while the configuration is unusable.
 */
export function authConfig(): AuthConfig {
  if (!g.asynqlensAuth || !unchanged(g.asynqlensAuth.key)) {
    const values: (string | undefined)[] = VARS.map((name) => process.env[name]);
    const file = v('ASYNQLENS_USERS_FILE');
    values.push(file ? fileStamp(file) : undefined);
    let config: AuthConfig | AuthConfigError;
    try {
      config = build();
    } catch (err) {
      if (!(err instanceof AuthConfigError)) throw err;
      config = err;
    }
    g.asynqlensAuth = { key: values, config };
  }
  const { config } = g.asynqlensAuth;
  if (config instanceof AuthConfigError) throw config;
  return config;
}
