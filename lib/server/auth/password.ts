import 'server-only';
import { DEFAULT_PARAMS, hashPassword, parseHash, verifyPassword, type ScryptHash } from './scrypt-hash';
import type { ConfiguredUser } from './users';

export { hashPassword, verifyPassword } from './scrypt-hash';

const g = globalThis as unknown as { asynqlensDummyHash?: Promise<ScryptHash> };

/** A hash of a random string with the default cost, made once per process. */
function dummyHash(): Promise<ScryptHash> {
  g.asynqlensDummyHash ??= hashPassword(crypto.randomUUID(), DEFAULT_PARAMS).then((h) => parseHash(h) as ScryptHash);
  return g.asynqlensDummyHash;
}

/**
 * The user whose name and password these are, or null. An unknown name still costs one full
 * scrypt (against a dummy hash), so the answer time does not tell which names exist.
 */
export async function checkCredentials(users: ReadonlyMap<string, ConfiguredUser>, name: string, password: string): Promise<ConfiguredUser | null> {
  const user = users.get(name);
  const ok = await verifyPassword(password, user?.hash ?? (await dummyHash()));
  return ok && user ? user : null;
}
