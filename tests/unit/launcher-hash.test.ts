/**
 * `asynqlens hash-password` (plain Node, shipped in the standalone build) and the server's
 * verifier (lib/server/auth/scrypt-hash.ts) must agree on the format and the parameters.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHash, verifyPassword } from '@/lib/server/auth/scrypt-hash';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'asynqlens.mjs');
const hashWithLauncher = (password: string) => execFileSync(process.execPath, [bin, 'hash-password'], { input: password }).toString().trim();

describe('asynqlens hash-password', () => {
  it('prints a hash the server accepts for that password and no other', async () => {
    for (const password of ['correct horse battery staple', 'pässwörd ✓', ' spaces around ']) {
      const hash = hashWithLauncher(password);
      expect(parseHash(hash)).toMatchObject({ N: 2 ** 15, r: 8, p: 1 });
      expect(await verifyPassword(password, hash)).toBe(true);
      expect(await verifyPassword(`${password}x`, hash)).toBe(false);
    }
  });

  it('salts every hash', () => {
    expect(hashWithLauncher('same')).not.toBe(hashWithLauncher('same'));
  });

  it('refuses an empty password', () => {
    expect(() => execFileSync(process.execPath, [bin, 'hash-password'], { input: '', stdio: 'pipe' })).toThrow(/empty/);
  });
});
