/**
 * Password hashing and the user configuration's error messages.
 */
import { describe, expect, it } from 'vitest';
import { safeNextPath } from '@/components/auth/safe-next';
import { entriesFromEnv, entriesFromFile, parseUsers } from '@/lib/server/auth/users';
import { hashPassword, parseHash, verifyPassword } from '@/lib/server/auth/scrypt-hash';

const FAST = { N: 1024, r: 8, p: 1 };

describe('scrypt hashes', () => {
  it('verifies the right password only, with a fresh salt per hash', async () => {
    const a = await hashPassword('s3cret pass', FAST);
    const b = await hashPassword('s3cret pass', FAST);
    expect(a).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('s3cret pass', a)).toBe(true);
    expect(await verifyPassword('s3cret pasS', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('uses N=2^15, r=8, p=1 by default', async () => {
    const h = parseHash(await hashPassword('x'));
    expect(typeof h === 'object' && [h.N, h.r, h.p, h.salt.length, h.hash.length]).toEqual([32768, 8, 1, 16, 32]);
  });

  it('treats Unicode forms of one password alike (NFC)', async () => {
    const h = await hashPassword('caf\u00e9', FAST);
    expect(await verifyPassword('cafe\u0301', h)).toBe(true);
  });

  it('names what is wrong with a malformed hash, and never matches one', async () => {
    expect(parseHash('bcrypt$x')).toContain('expected scrypt$');
    expect(parseHash('scrypt$1000$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==')).toContain('N must be a power of two');
    expect(parseHash('scrypt$1024$0$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==')).toContain('r must be');
    expect(parseHash('scrypt$1024$8$1$!!$aGFzaGhhc2hoYXNoaGFzaA==')).toContain('salt');
    expect(parseHash('scrypt$1024$8$1$c2FsdHNhbHQ=$aGFzaA==')).toContain('hash must be');
    expect(await verifyPassword('x', 'scrypt$nope')).toBe(false);
  });
});

describe('user configuration', () => {
  const hash = 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA==';

  it('reads name:role:hash entries split by commas or newlines, and file lines with comments', () => {
    const env = entriesFromEnv(`alice:operator:${hash},\n bob:viewer:${hash}\n`);
    const file = entriesFromFile(`# team\ncarol viewer ${hash}\n\ndave:operator:${hash}  # on call\n`, 'users.txt');
    const users = parseUsers([...env, ...file]);
    expect([...users.values()].map((u) => [u.name, u.role])).toEqual([
      ['alice', 'operator'],
      ['bob', 'viewer'],
      ['carol', 'viewer'],
      ['dave', 'operator'],
    ]);
  });

  it.each([
    [`alice:operator:${hash},bob:admin:${hash}`, 'ASYNQLENS_USERS entry 2: unknown role "admin" for user bob (roles: viewer, operator)'],
    [`alice:operator:${hash},alice:viewer:${hash}`, 'ASYNQLENS_USERS entry 2: duplicate user name alice'],
    ['alice:operator:scrypt$1$2', 'ASYNQLENS_USERS entry 1: malformed password hash for user alice: expected scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>'],
    [`alice:${hash}`, 'ASYNQLENS_USERS entry 1: expected name, role and hash (name:role:scrypt$…), got 2 field(s)'],
  ])('refuses %s', (text, message) => {
    expect(() => parseUsers(entriesFromEnv(text))).toThrow(message);
  });

  it('names the file and line of a bad file entry', () => {
    expect(() => parseUsers(entriesFromFile(`# c\nalice operator ${hash}\nbob superuser ${hash}\n`, '/etc/lens-users'))).toThrow(
      'ASYNQLENS_USERS_FILE (/etc/lens-users) line 3: unknown role "superuser" for user bob',
    );
  });
});

describe('the post-sign-in destination', () => {
  it.each([
    ['/queues/q?state=archived', '/queues/q?state=archived'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/login?next=/x', '/'],
    [null, '/'],
  ])('%s → %s', (raw, want) => {
    expect(safeNextPath(raw)).toBe(want);
  });
});
