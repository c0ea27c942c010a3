/**
 * Clone: a task's record fills the enqueue form so that the first submit enqueues the same
 * task, every option included (the unique TTL too), with durations written in human units that
 * the form reads back exactly.
 */
import { describe, expect, it } from 'vitest';
import { draftFromTask, toEnqueueRequest, uniqueTtlGuessed } from '@/components/enqueue/enqueue-draft';
import type { TaskDto } from '@/lib/contract/tasks';
import { formatDuration, parseDuration } from '@/lib/utils';

const TASK: TaskDto = {
  id: 'src', queue: 'mail', type: 'email:send', payload: '{"to":"a@b.c"}', payloadEncoding: 'utf8', payloadSize: 14, payloadTruncated: false,
  headers: { tenant: 'acme' }, state: 'pending', maxRetry: 7, retried: 0, lastError: '', handlerNotFound: false, lastFailedAt: null,
  timeoutSeconds: 1800, deadline: null, group: null, nextProcessAt: null, pendingSince: '2026-11-30T03:00:00.000Z', completedAt: null,
  retentionSeconds: 3900, expiresAt: null, result: null, resultEncoding: null, isOrphaned: false,
  uniqueKey: 'asynq:{mail}:unique:email:send:abc', uniqueLock: { key: 'asynq:{mail}:unique:email:send:abc', ttlSeconds: 3000, holderId: 'src', ownedByThisTask: true },
  uniqueTtlSeconds: 3600, problem: null,
};
const PAYLOAD = { text: TASK.payload, encoding: 'utf8' as const };

describe('formatDuration, the one duration form', () => {
  it('shows the two largest units, and every unit when exact', () => {
    expect([45, 1800, 3600, 3900, 3903, 90_061].map((s) => formatDuration(s))).toEqual(['45s', '30m', '1h', '1h 5m', '1h 5m', '1d 1h']);
    expect([3903, 90_061, 0.5, 1.5].map((s) => formatDuration(s, { exact: true }))).toEqual(['1h 5m 3s', '1d 1h 1m 1s', '500ms', '1.5s']);
  });

  it('exact text reads back as the same number', () => {
    for (const s of [1, 59, 60, 1800, 3900, 3903, 86_400, 90_061, 0.5, 1.5, 31_536_000]) expect(parseDuration(formatDuration(s, { exact: true }))).toBe(s);
  });
});

describe('draftFromTask', () => {
  it('fills every option, the unique TTL included, in human units', () => {
    const d = draftFromTask(TASK, PAYLOAD);
    expect(d).toMatchObject({ queue: 'mail', type: 'email:send', unique: true, uniqueTtl: '1h', maxRetry: '7', timeout: '30m', retention: '1h 5m' });
    expect(uniqueTtlGuessed(TASK)).toBe(false);
  });

  it('submits as is: the request carries the same options as the task', () => {
    const built = toEnqueueRequest(draftFromTask(TASK, PAYLOAD));
    expect(built).toEqual({
      ok: true,
      queue: 'mail',
      body: {
        type: 'email:send', payload: '{"to":"a@b.c"}', payloadEncoding: 'utf8',
        options: { uniqueTtlSeconds: 3600, maxRetry: 7, timeoutSeconds: 1800, retentionSeconds: 3900, headers: { tenant: 'acme' } },
      },
    });
  });

  it('a unique task whose lock no longer tells its TTL gets an hour, and says so', () => {
    const gone = { ...TASK, state: 'completed', uniqueLock: null, uniqueTtlSeconds: null };
    expect(draftFromTask(gone, PAYLOAD).uniqueTtl).toBe('1h');
    expect(uniqueTtlGuessed(gone)).toBe(true);
    const built = toEnqueueRequest(draftFromTask(gone, PAYLOAD));
    expect(built.ok && built.body.options?.uniqueTtlSeconds).toBe(3600);
  });

  it('a task that is not unique leaves the TTL empty and sends none', () => {
    const plain = { ...TASK, uniqueKey: null, uniqueLock: null, uniqueTtlSeconds: null };
    expect(draftFromTask(plain, PAYLOAD)).toMatchObject({ unique: false, uniqueTtl: '' });
    const built = toEnqueueRequest(draftFromTask(plain, PAYLOAD));
    expect(built.ok && built.body.options).not.toHaveProperty('uniqueTtlSeconds');
    expect(uniqueTtlGuessed(plain)).toBe(false);
  });
});
