/**
 * The queue-name rule for writes: which names are refused and why, and that the wire contract
 * (lib/contract/common.ts) and the core (lib/asynq/queue-name.ts) answer every name alike.
 */
import { describe, expect, it } from 'vitest';
import { QUEUE_NAME_RULE as CONTRACT_RULE, queueName, writableQueueName } from '@/lib/contract/common';
import { QUEUE_NAME_RULE, isWritableQueueName } from '@/lib/asynq/queue-name';
import { lockQueue } from '@/lib/asynq/diagnostics/lock-key';

const ACCEPTED = ['default', 'critical', 'a:b', 'emails:eu-west', 'a*', 'q?[x]\\', 'キュー', 'naïve queue', ' padded ', '😀', 'x'.repeat(256), 'é'.repeat(128)];
const REFUSED = [
  '', '   ', '\t',
  'default}:t:X', 'nest}:unique:zz', '}', '{', 'a{b', 'a}b', '{default}',
  'a\nb', 'a\u0000b', 'a\u001bb', 'a\u007fb', 'a\u0085b',
  'a\ud800b', '\udc00', 'x\ud83d',
  'x'.repeat(257), 'é'.repeat(129),
];

describe('the writable queue-name rule', () => {
  it.each(ACCEPTED)('accepts %j', (name) => {
    expect(isWritableQueueName(name)).toBe(true);
    expect(writableQueueName.safeParse(name).success).toBe(true);
  });

  it.each(REFUSED)('refuses %j, with the rule as the message', (name) => {
    expect(isWritableQueueName(name)).toBe(false);
    const r = writableQueueName.safeParse(name);
    expect(r.success).toBe(false);
    // A blank name keeps asynq's own text (Go's client refuses it alike); the rest name the rule.
    const text = name.trim() === '' ? 'queue name must contain one or more characters' : QUEUE_NAME_RULE;
    expect(!r.success && r.error.issues[0]?.message).toBe(text);
  });

  it('is stricter than the read rule only: every refused non-blank name is still readable', () => {
    for (const name of REFUSED.filter((n) => n.trim() !== '')) expect(queueName.safeParse(name).success).toBe(true);
  });

  it('core and contract give the same answer on 20,000 random names, and the same text', () => {
    expect(CONTRACT_RULE).toBe(QUEUE_NAME_RULE);
    // Code units drawn mostly from the interesting ranges: braces, controls, surrogates, ASCII, multi-byte.
    const pools = ['{}', ' \t\n\u0000\u001f\u007f\u0085\u009f\u00a0', '\ud800\udbff\udc00\udfff', 'abc:*?[]\\-_.', 'éキ😀'];
    // mulberry32: a seeded generator, so a failure names a name that fails again.
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n | 0;
    };
    const disagreements: string[] = [];
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      const len = rand(8) === 0 ? 250 + rand(20) : rand(12);
      let s = '';
      for (let j = 0; j < len; j++) {
        // One code unit in twelve from the braces, controls or surrogates; the rest ASCII or multi-byte.
        const pool = pools[rand(12) === 0 ? rand(3) : 3 + rand(2)]!;
        s += pool[rand(pool.length)];
      }
      const core = isWritableQueueName(s);
      if (writableQueueName.safeParse(s).success !== core) disagreements.push(JSON.stringify(s));
      if (!core) refused += 1;
    }
    expect(disagreements).toEqual([]);
    // Both answers occur often enough for the comparison to mean something.
    expect(refused).toBeGreaterThan(2_000);
    expect(refused).toBeLessThan(18_000);
  });
});

describe('which queue owns a lock key (lockQueue, the rule of every lock route)', () => {
  const known = ['nest', 'nest}:unique:zz', 'a:b', 'a'];
  it.each([
    ['asynq:{nest}:unique:t:0123456789abcdef0123456789abcdef', 'nest'],
    ['asynq:{nest}:unique:zz}:unique:t:', 'nest}:unique:zz'],
    ['asynq:{nest}:unique:zz}:paused', null],
    ['asynq:{nest}:unique:zz}:processed', null],
    ['asynq:{a:b}:unique:t:', 'a:b'],
    ['asynq:{gone}:unique:t:', 'gone'],
    ['asynq:{nest}:pending', null],
  ] as const)('%s → %j', (key, owner) => {
    expect(lockQueue(key, known)).toBe(owner);
  });
});
