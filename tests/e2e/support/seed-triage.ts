/**
 * The handler-not-found and routing scenarios of issue 7, in their own queue so that re-running
 * them changes nothing another spec counts: a type no worker handles (archived and retry tasks
 * with asynq's not-found error, plus pending and scheduled ones still waiting), and the types
 * the routing explainer's pattern set sorts into exact, prefix (one only by text, `emailextra`)
 * and none.
 */
import type { Redis } from 'ioredis';
import { json, newTaskMessage } from '../../../lib/asynq/testutil/factories';
import { seedPending, seedZset } from '../../../lib/asynq/testutil/seed';

export const TRIAGE_QUEUE = 'e2e-triage';
export const NOT_FOUND_TYPE = 'billing:refund';

export interface TriageSeed {
  /** The archived and retry tasks of NOT_FOUND_TYPE that failed with "handler not found". */
  failedIds: string[];
  /** Its pending and scheduled tasks, which will fail the same way. */
  waitingIds: string[];
}

export async function seedTriage(redis: Redis): Promise<TriageSeed> {
  const now = Math.floor(Date.now() / 1000);
  const errorMsg = `handler not found for task ${JSON.stringify(NOT_FOUND_TYPE)}`;
  const failedIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const m = newTaskMessage({ type: NOT_FOUND_TYPE, queue: TRIAGE_QUEUE, payload: json({ refund: i }), retried: 25, errorMsg, lastFailedAt: now - 5400 * (i + 1) });
    await seedZset(redis, 'archived', m, now - 5400 * (i + 1));
    failedIds.push(m.id);
  }
  for (let i = 0; i < 2; i++) {
    const m = newTaskMessage({ type: NOT_FOUND_TYPE, queue: TRIAGE_QUEUE, payload: json({ refund: 10 + i }), retried: 2, errorMsg, lastFailedAt: now - 120 * (i + 1) });
    await seedZset(redis, 'retry', m, now + 600 * (i + 1));
    failedIds.push(m.id);
  }
  const pending = newTaskMessage({ type: NOT_FOUND_TYPE, queue: TRIAGE_QUEUE, payload: json({ refund: 20 }) });
  await seedPending(redis, pending);
  const scheduled = newTaskMessage({ type: NOT_FOUND_TYPE, queue: TRIAGE_QUEUE, payload: json({ refund: 21 }) });
  await seedZset(redis, 'scheduled', scheduled, now + 3600);

  // A completed one: some server of the fleet ran the type, yet others fail it (a conflict).
  const done = newTaskMessage({ type: NOT_FOUND_TYPE, queue: TRIAGE_QUEUE, payload: json({ refund: 30 }), retention: 3600, completedAt: now - 60 });
  await seedZset(redis, 'completed', done, now + 3600);
  // What its handler wrote with ResultWriter: the Completed tab's Result column shows it.
  await redis.hset(`asynq:{${TRIAGE_QUEUE}}:t:${done.id}`, 'result', '{"refunded":30}');

  for (let i = 0; i < 2; i++) await seedPending(redis, newTaskMessage({ type: 'emailextra', queue: TRIAGE_QUEUE, payload: json({ i }) }));
  await seedPending(redis, newTaskMessage({ type: 'sms:send', queue: TRIAGE_QUEUE, payload: json({ to: '+15550100' }) }));
  return { failedIds, waitingIds: [pending.id, scheduled.id] };
}
