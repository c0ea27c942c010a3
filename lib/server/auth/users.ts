import 'server-only';
import { parseHash, type ScryptHash } from './scrypt-hash';

export type Role = 'viewer' | 'operator';
export const ROLES: readonly Role[] = ['viewer', 'operator'];

export interface ConfiguredUser {
  name: string;
  role: Role;
  hash: ScryptHash;
}

/** A user entry that cannot be used; the message names where it is and which rule it breaks. */
export class UserConfigError extends Error {
  override readonly name = 'UserConfigError';
}

const NAME = /^[^\s:,#]{1,128}$/;

interface RawEntry {
  where: string;
  fields: string[];
}

/** `name:role:hash` entries separated by commas or newlines (ASYNQLENS_USERS). */
export function entriesFromEnv(text: string): RawEntry[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s, i) => ({ where: `ASYNQLENS_USERS entry ${i + 1}`, fields: s.split(':') }));
}

/** One `name role hash` or `name:role:hash` per line; `#` starts a comment (ASYNQLENS_USERS_FILE). */
export function entriesFromFile(text: string, file: string): RawEntry[] {
  const out: RawEntry[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const s = line.replace(/#.*$/, '').trim();
    if (s === '') return;
    out.push({ where: `ASYNQLENS_USERS_FILE (${file}) line ${i + 1}`, fields: s.includes(':') ? s.split(':') : s.split(/\s+/) });
  });
  return out;
}

/**
 * The users of every entry, by name. Throws {@link UserConfigError} at the first entry that
 * has the wrong number of fields, a bad name, an unknown role, a malformed hash, or a name
 * already taken by an earlier entry.
 */
export function parseUsers(entries: RawEntry[]): Map<string, ConfiguredUser> {
  const users = new Map<string, ConfiguredUser>();
  for (const { where, fields } of entries) {
    if (fields.length !== 3) throw new UserConfigError(`${where}: expected name, role and hash (name:role:scrypt$…), got ${fields.length} field(s)`);
    const [name, role, hashText] = fields.map((f) => f.trim()) as [string, string, string];
    if (!NAME.test(name)) throw new UserConfigError(`${where}: user name ${JSON.stringify(name)} must be 1–128 characters without spaces, ':', ',' or '#'`);
    if (!(ROLES as readonly string[]).includes(role)) throw new UserConfigError(`${where}: unknown role ${JSON.stringify(role)} for user ${name} (roles: viewer, operator)`);
    const hash = parseHash(hashText);
    if (typeof hash === 'string') throw new UserConfigError(`${where}: malformed password hash for user ${name}: ${hash} (make one with npm run hash-password)`);
    if (users.has(name)) throw new UserConfigError(`${where}: duplicate user name ${name}`);
    users.set(name, { name, role: role as Role, hash });
  }
  return users;
}
