/**
 * The pure rules of the task server: retry delay, processing deadline, queue order, the
 * sentinel errors and the server's config validation.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '@/lib/asynq/worker/config';
import { computeDeadline } from '@/lib/asynq/worker/deadline';
import { errorIs, errorText, RevokeTask, SkipRetry } from '@/lib/asynq/worker/errors';
import { cleanQueues, normalizeQueues, queueOrder } from '@/lib/asynq/worker/queue-order';
import { defaultRetryDelay } from '@/lib/asynq/worker/retry-delay';
import { newTask } from '@/lib/asynq/worker/task';

describe('defaultRetryDelay (n⁴ + 15 + rand[0,30) × (n + 1) s)', () => {
  it.each([0, 1, 2, 5, 10, 24])('stays within asynq bounds for n=%i', (n) => {
    for (let i = 0; i < 200; i++) {
      const s = defaultRetryDelay(n, new Error('x'), newTask('t'));
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(n ** 4 + 15);
      expect(s).toBeLessThanOrEqual(n ** 4 + 15 + 29 * (n + 1));
      expect((s - n ** 4 - 15) % (n + 1)).toBe(0);
    }
  });
});

describe('computeDeadline', () => {
  const now = new Date('2026-01-01T00:00:00.500Z');
  const sec = Math.floor(now.getTime() / 1000);
  it('neither → now + 30 min', () => expect(computeDeadline({ timeout: 0, deadline: 0 }, now).getTime()).toBe(now.getTime() + 1_800_000));
  it('only timeout → now + timeout', () => expect(computeDeadline({ timeout: 10, deadline: 0 }, now).getTime()).toBe(now.getTime() + 10_000));
  it('only deadline → the deadline', () => expect(computeDeadline({ timeout: 0, deadline: sec + 99 }, now).getTime()).toBe((sec + 99) * 1000));
  it('both → the earlier, whole seconds', () => {
    expect(computeDeadline({ timeout: 10, deadline: sec + 99 }, now).getTime()).toBe((sec + 10) * 1000);
    expect(computeDeadline({ timeout: 100, deadline: sec + 5 }, now).getTime()).toBe((sec + 5) * 1000);
  });
});

describe('queue order', () => {
  it('cleanQueues drops blank names and priorities ≤ 0, defaulting to {default: 1}', () => {
    expect(cleanQueues({ a: 3, ' ': 2, b: 0, c: -1 })).toEqual({ a: 3 });
    expect(cleanQueues({})).toEqual({ default: 1 });
    expect(cleanQueues(undefined)).toEqual({ default: 1 });
  });

  it('normalizeQueues divides by the GCD', () => {
    expect(normalizeQueues({ critical: 6, default: 3, low: 3 })).toEqual({ critical: 2, default: 1, low: 1 });
  });

  it('strict: always by priority, highest first', () => {
    const order = queueOrder({ low: 1, critical: 6, default: 3 }, true);
    for (let i = 0; i < 5; i++) expect(order()).toEqual(['critical', 'default', 'low']);
  });

  it('weighted: every queue each time, first place in proportion to priority', () => {
    const order = queueOrder({ critical: 6, default: 3, low: 1 }, false);
    const first: Record<string, number> = { critical: 0, default: 0, low: 0 };
    const rounds = 20_000;
    for (let i = 0; i < rounds; i++) {
      const o = order();
      expect([...o].sort()).toEqual(['critical', 'default', 'low']);
      first[o[0]!]!++;
    }
    expect(first.critical! / rounds).toBeCloseTo(0.6, 1);
    expect(first.default! / rounds).toBeCloseTo(0.3, 1);
    expect(first.low! / rounds).toBeCloseTo(0.1, 1);
  });

  it('a single queue needs no shuffling', () => {
    expect(queueOrder({ only: 5 }, false)()).toEqual(['only']);
  });
});

describe('sentinel errors', () => {
  it('have asynq texts and are found through cause chains (errors.Is)', () => {
    expect(SkipRetry.message).toBe('skip retry for the task');
    expect(RevokeTask.message).toBe('revoke task');
    const wrapped = new Error('bad input: skip retry for the task', { cause: SkipRetry });
    expect(errorIs(wrapped, SkipRetry)).toBe(true);
    expect(errorIs(wrapped, RevokeTask)).toBe(false);
    expect(errorIs(new Error('skip retry for the task'), SkipRetry)).toBe(false);
  });

  it('errorText: message of an Error, text of anything else', () => {
    expect(errorText(new Error('boom'))).toBe('boom');
    expect(errorText('plain')).toBe('plain');
    expect(errorText(42)).toBe('42');
    expect(errorText({ a: 1 })).toBe('{"a":1}');
    expect(errorText(undefined)).toBe('undefined');
  });
});

describe('resolveConfig', () => {
  it('has asynq defaults', () => {
    const c = resolveConfig({});
    expect(c.queues).toEqual({ default: 1 });
    expect(c.shutdownTimeoutMs).toBe(8000);
    expect(c.heartbeatIntervalMs).toBe(5000);
    expect(c.delayedTaskCheckIntervalMs).toBe(5000);
    expect(c.janitorIntervalMs).toBe(8000);
    expect(c.janitorBatchSize).toBe(100);
    expect(c.recovererIntervalMs).toBe(60_000);
    expect(c.groupGracePeriodMs).toBe(60_000);
  });

  it('refuses a grace period under a second with asynq text', () => {
    expect(() => resolveConfig({ groupGracePeriodMs: 500 })).toThrow('GroupGracePeriod cannot be less than a second');
  });
});
