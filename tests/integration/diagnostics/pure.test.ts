/**
 * The diagnostics' pure parts: lock keys, findings and their wording, the volatile-field
 * canonical form and the grouper. No Redis. The msg reader is tested in
 * tests/unit/asynq/task-msg-view.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DuplicateGrouper } from '@/lib/asynq/diagnostics/duplicate-groups';
import { lockFindings, retriesEndEstimate, type LockHolder } from '@/lib/asynq/diagnostics/lock-findings';
import { escapeGlob, lockQueue, parseLockKey, queueLockPattern } from '@/lib/asynq/diagnostics/lock-key';
import { canonicalize, isVolatileName } from '@/lib/asynq/diagnostics/volatile-fields';
import { uniqueKey } from '@/lib/asynq/keys';
import { json } from '@/lib/asynq/testutil/factories';

const NOW = new Date('2026-11-30T03:00:00Z');
const holder = (over: Partial<LockHolder>): LockHolder => ({
  id: 't1', state: 'pending', maxRetry: null, retried: null, nextAttemptAt: null, uniqueKey: null, ...over,
});

describe('lock keys', () => {
  it('escapes every glob metacharacter of a queue name', () => {
    expect(escapeGlob('a*b?c[d]e\\f')).toBe('a\\*b\\?c\\[d\\]e\\\\f');
    expect(queueLockPattern('q*')).toBe('asynq:{q\\*}:unique:*');
  });

  it('splits type (colons allowed) and md5, and knows Go nil payloads and foreign keys', () => {
    const key = uniqueKey('q', 'email:send:v2', json({ a: 1 }));
    expect(parseLockKey('q', key)).toEqual({ queue: 'q', taskType: 'email:send:v2', payloadMd5: key.slice(-32) });
    expect(parseLockKey('q', uniqueKey('q', 'ping', null))).toEqual({ queue: 'q', taskType: 'ping', payloadMd5: '' });
    expect(parseLockKey('q', 'asynq:{q}:unique:hand-made')).toEqual({ queue: 'q', taskType: 'hand-made', payloadMd5: null });
    expect(parseLockKey('q', 'asynq:{other}:unique:x:')).toBeNull();
  });

  it('finds the queue of a lock key, preferring the longest known queue, else the key text', () => {
    expect(lockQueue(uniqueKey('a:b', 't', null), ['a', 'a:b'])).toBe('a:b');
    expect(lockQueue(uniqueKey('gone', 't', null), ['a'])).toBe('gone');
    expect(lockQueue('asynq:{x}:pending', [])).toBeNull();
  });
});

describe('lock findings', () => {
  const key = 'asynq:{q}:unique:t:';

  it('says until when an archived holder blocks re-enqueue', () => {
    const f = lockFindings({ key, pttlMs: 3_600_000, holder: holder({ state: 'archived', uniqueKey: key }), now: NOW });
    expect(f).toEqual([{ code: 'held_by_archived', message: expect.stringContaining('refused until 2026-11-30 04:00:00 UTC') }]);
  });

  it('flags a retry holder whose next attempt is after the lock expires, saying from when', () => {
    const h = holder({ state: 'retry', retried: 1, maxRetry: 1, uniqueKey: key, nextAttemptAt: new Date('2026-11-30T03:01:00Z') });
    const f = lockFindings({ key, pttlMs: 30_000, holder: h, now: NOW });
    expect(f.map((x) => x.code)).toEqual(['expires_before_retries_end']);
    expect(f[0]!.message).toContain('from 2026-11-30 03:00:30 UTC');
    expect(f[0]!.message).toContain('next retry at 2026-11-30 03:01:00 UTC');
  });

  it('flags a retry holder whose remaining schedule (n⁴+15 s each) outlasts the lock', () => {
    const next = new Date('2026-11-30T03:00:10Z');
    // retried 2 of 4: two more delays, n = 2 and 3: (16+15) + (81+15) = 127 s after the next attempt.
    expect(retriesEndEstimate(next, 2, 4).toISOString()).toBe('2026-11-30T03:02:17.000Z');
    const h = holder({ state: 'retry', retried: 2, maxRetry: 4, uniqueKey: key, nextAttemptAt: next });
    const f = lockFindings({ key, pttlMs: 60_000, holder: h, now: NOW });
    expect(f).toEqual([{ code: 'expires_before_retries_end', message: expect.stringContaining('until ~2026-11-30 03:02:17 UTC') }]);
    expect(f[0]!.message).toContain('from 2026-11-30 03:01:00 UTC');
    // A lock that outlives the schedule is fine, and so is a last attempt before expiry.
    expect(lockFindings({ key, pttlMs: 200_000, holder: h, now: NOW })).toEqual([]);
    expect(lockFindings({ key, pttlMs: 60_000, holder: { ...h, retried: 4 }, now: NOW })).toEqual([]);
  });

  it('calls a lock orphaned when its holder is gone, completed, or names another lock', () => {
    const codes = (h: LockHolder) => lockFindings({ key, pttlMs: 5000, holder: h, now: NOW }).map((x) => x.code);
    expect(codes(holder({ state: null }))).toEqual(['orphaned']);
    expect(codes(holder({ state: 'completed', uniqueKey: key }))).toEqual(['orphaned']);
    expect(codes(holder({ state: 'pending', uniqueKey: 'asynq:{q}:unique:t:other' }))).toEqual(['orphaned']);
    expect(codes(holder({ state: 'pending', uniqueKey: '' }))).toEqual(['orphaned']);
    expect(codes(holder({ state: 'pending', uniqueKey: key }))).toEqual([]);
    // Not read (null) is no evidence of anything.
    expect(codes(holder({ state: 'active', uniqueKey: null }))).toEqual([]);
  });

  it('flags a lock without expiry, alongside its other findings', () => {
    const f = lockFindings({ key, pttlMs: -1, holder: holder({ state: null }), now: NOW });
    expect(f.map((x) => x.code)).toEqual(['orphaned', 'no_expiry']);
    expect(f[0]!.message).toContain('until the lock is deleted');
  });
});

describe('volatile fields', () => {
  it('knows per-enqueue names', () => {
    for (const n of ['ts', 'timestamp', 'createdAt', 'sent_at', 'requestId', 'traceId', 'nonce', 'updatedAt']) expect(isVolatileName(n), n).toBe(true);
    for (const n of ['id', 'user', 'date', 'format', 'chat', 'data']) expect(isVolatileName(n), n).toBe(false);
  });

  it('blanks volatile values by name or by look, with dotted paths, keys sorted', () => {
    const a = canonicalize(Buffer.from('{"b":1,"meta":{"sentAt":"x","ok":true},"a":[{"at":"2026-01-01T00:00:00Z"}],"n":1764471600}'))!;
    const b = canonicalize(Buffer.from('{"a":[{"at":"2027-02-02T10:00:00.123+02:00"}],"n":1764471601000,"meta":{"ok":true,"sentAt":"y"},"b":1}'))!;
    expect(a.text).toBe(b.text);
    expect(a.paths).toEqual(['a.0.at', 'meta.sentAt', 'n']);
    expect(canonicalize(Buffer.from('{"user":7}'))).toBeNull(); // nothing volatile
    expect(canonicalize(Buffer.from('not json'))).toBeNull();
    expect(canonicalize(Buffer.from('"2026-01-01T00:00:00Z"'))).toBeNull(); // a bare scalar
  });
});

describe('DuplicateGrouper', () => {
  const add = (g: DuplicateGrouper, id: string, type: string, payload: string, state = 0) =>
    g.add(Buffer.from(id), state, Buffer.from(type), Buffer.from(payload));

  it('groups exact and near duplicates, names the varying fields, keeps a bounded sample', () => {
    const g = new DuplicateGrouper(['pending', 'retry'], { samples: 3 });
    for (let i = 0; i < 5; i++) add(g, `e${i}`, 'email', '{"to":"a"}', i % 2);
    add(g, 'other-type', 'sms', '{"to":"a"}');
    add(g, 'n1', 'rep', '{"user":1,"ts":"2026-01-01T00:00:00Z"}');
    add(g, 'n2', 'rep', '{"user":1,"ts":"2026-01-01T00:00:01Z"}');
    add(g, 'n3', 'rep', '{"ts":"2026-01-01T00:00:01Z","user":1}'); // key order only
    add(g, 'solo', 'rep', '{"user":2,"ts":"2026-01-01T00:00:00Z"}');
    const [exact, near, ...rest] = g.groups(10);
    expect(rest).toEqual([]);
    expect(exact).toMatchObject({ kind: 'exact', taskType: 'email', count: 5, distinctPayloads: 1, varyingFields: [] });
    expect(exact!.tasks).toEqual([{ id: 'e0', state: 'pending' }, { id: 'e1', state: 'retry' }, { id: 'e2', state: 'pending' }]);
    expect(near).toMatchObject({ kind: 'near', taskType: 'rep', count: 3, distinctPayloads: 3, varyingFields: ['ts'], payloadMd5: null });
    expect(near!.tasks.map((t) => t.id)).toEqual(['n1', 'n2', 'n3']);
    expect([g.exactGroups, g.nearGroups, g.surplusTasks]).toEqual([1, 1, 4]);
  });

  it('never lists a task twice, even when a shifting set hands it over twice', () => {
    const g = new DuplicateGrouper(['pending']);
    add(g, 'x', 't', 'p');
    add(g, 'x', 't', 'p');
    add(g, 'y', 't', 'p');
    expect(g.groups(1)[0]!.tasks.map((t) => t.id)).toEqual(['x', 'y']);
  });

  it('keeps distinct payloads in compact arrays', () => {
    const g = new DuplicateGrouper(['pending']);
    for (let i = 0; i < 200_000; i++) add(g, `id-${i}`, 't', `p${i}`);
    expect(g.exactGroups).toBe(0);
    // About 60 bytes per distinct payload, id bytes included.
    expect(g.bytes / 200_000).toBeLessThan(120);
  });
});
