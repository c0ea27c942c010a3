/**
 * Sample tasks in every state for the demo, written the way asynq leaves them in Redis:
 * a few queues of an imaginary shop, with unique locks, retries, not-found archives,
 * completed results, aggregation groups and daily counters.
 */
import type { Redis } from 'ioredis';
import * as k from '../../lib/asynq/keys';
import { json, newTaskMessage } from '../../lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedLock, seedPending, seedZset } from '../../lib/asynq/testutil/seed';

const DAY = 86_400;

export async function seedSampleData(redis: Redis): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const nsAgo = (s: number) => (BigInt(Date.now()) - BigInt(s * 1000)) * 1_000_000n;

  for (let i = 0; i < 40; i++) {
    await seedPending(redis, newTaskMessage({ type: 'email:welcome', queue: 'default', payload: json({ userId: 1000 + i }) }), nsAgo(120 - i));
  }
  const key = k.uniqueKey('default', 'report:daily', json({ day: '2026-11-30' }));
  const report = newTaskMessage({ type: 'report:daily', queue: 'default', payload: json({ day: '2026-11-30' }), uniqueKey: key });
  await seedPending(redis, report);
  await seedLock(redis, key, report.id, 3600);
  await seedPending(redis, newTaskMessage({ type: 'blob:thumbnail', queue: 'default', payload: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]) }));
  await seedPending(redis, newTaskMessage({ type: 'email:receipt', queue: 'default', payload: json({ orderId: 4711 }), headers: { tenant: 'acme', 'trace-id': 'f00d' } }));

  for (let i = 0; i < 3; i++) {
    await seedActive(redis, newTaskMessage({ type: 'image:resize', queue: 'critical', payload: json({ imageId: i }) }));
  }
  await seedPending(redis, newTaskMessage({ type: 'payment:capture', queue: 'critical', payload: json({ orderId: 4711, amount: 1999 }) }), nsAgo(30));

  for (let i = 0; i < 12; i++) {
    await seedZset(redis, 'scheduled', newTaskMessage({ type: 'email:reminder', queue: 'default', payload: json({ cartId: i }) }), now + 600 * (i + 1));
  }
  for (let i = 0; i < 6; i++) {
    await seedZset(redis, 'retry', newTaskMessage({
      type: 'webhook:deliver', queue: 'webhooks', payload: json({ url: `https://example.test/hook/${i}`, attempt: i }),
      retried: i + 1, errorMsg: `POST https://example.test/hook/${i}: 503 Service Unavailable`, lastFailedAt: now - 60 * i,
    }), now + 90 * (i + 1));
  }
  for (let i = 0; i < 5; i++) {
    await seedZset(redis, 'archived', newTaskMessage({
      type: 'report:new', queue: 'default', payload: json({ reportId: i }), retried: 25,
      errorMsg: 'handler not found for task "report:new"', lastFailedAt: now - 3600 * i,
    }), now - 3600 * i);
  }
  await seedZset(redis, 'archived', newTaskMessage({
    type: 'webhook:deliver', queue: 'webhooks', payload: json({ url: 'https://example.test/gone' }), retried: 25, retry: 25,
    errorMsg: 'POST https://example.test/gone: 410 Gone', lastFailedAt: now - 7200,
  }), now - 7200);
  for (let i = 0; i < 4; i++) {
    const m = newTaskMessage({ type: 'invoice:render', queue: 'default', payload: json({ invoice: i }), retention: DAY, completedAt: now - 300 * i });
    await seedZset(redis, 'completed', m, now - 300 * i + DAY);
    await redis.hset(k.taskKey('default', m.id), 'result', JSON.stringify({ pages: 2 + i, url: `s3://invoices/${i}.pdf` }));
  }
  for (const [group, n] of [['tenant-acme', 4], ['tenant-globex', 2]] as const) {
    for (let i = 0; i < n; i++) {
      await seedAggregating(redis, newTaskMessage({ type: 'notify:digest', queue: 'notifications', groupKey: group, payload: json({ event: i }) }));
    }
  }
  await seedPending(redis, newTaskMessage({ type: 'misc:ping', queue: 'low priority' }));
  await redis.set(k.pausedKey('low priority'), now - 600);

  for (let d = 0; d < 14; d++) {
    const day = new Date(Date.now() - d * DAY * 1000);
    for (const q of ['default', 'critical', 'webhooks']) {
      const processed = 200 + ((d * 37 + q.length * 11) % 150);
      await redis.set(k.processedKey(q, day), processed, 'EX', 90 * DAY);
      await redis.set(k.failedKey(q, day), Math.floor(processed * (q === 'webhooks' ? 0.12 : 0.02)), 'EX', 90 * DAY);
    }
  }
  for (const q of ['default', 'critical', 'webhooks']) {
    await redis.set(k.processedTotalKey(q), 48_210);
    await redis.set(k.failedTotalKey(q), 1_337);
  }
}
