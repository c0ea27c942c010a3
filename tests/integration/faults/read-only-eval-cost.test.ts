/**
 * Choosing EVALSHA_RO costs the console's connections no round trip: the server version comes
 * from the INFO ioredis already sends when it connects (its ready check). A fresh connection's
 * first queue list is SSCAN + EVALSHA_RO, with no INFO of its own.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createInspector } from '@/lib/asynq';
import { connect } from '@/lib/asynq/connection';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { countCommands } from '../../support/command-counter';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';

const DB = 94;
const admin = await useTestRedis(DB, { flushEach: false });
let client: Redis;

beforeAll(async () => {
  await seedPending(admin, newTaskMessage({ type: 't', queue: 'q' }));
  // Redis knows the script, as it would once any console has read the queue list.
  await createInspector(admin).queues();
  client = connect({ kind: 'standalone', url: testRedisUrl(DB) }) as Redis;
  await client.ping(); // connected: the ready check has run
});
afterAll(() => client.disconnect());

it('sends no INFO for the version on a new connection', async () => {
  const { result, commands } = await countCommands(testRedisUrl(DB).replace(/\/\d+$/, ''), DB, () => createInspector(client).queues());
  expect(result.map((q) => q.queue)).toEqual(['q']);
  expect(commands).toEqual(['sscan', 'evalsha_ro']);
});
