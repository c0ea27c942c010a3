/**
 * The e2e environment without the specs, for poking at by hand or with a script: private Redis,
 * demo + e2e data, `next start`. Prints the URL; Ctrl-C (or SIGTERM) stops everything.
 *
 *   npx tsx tests/e2e/support/serve.ts
 */
import { Redis } from 'ioredis';
import { seedSampleData } from '../../../scripts/demo/sample-data';
import { startRedisServer } from '../../../scripts/support/redis-server';
import { startApp } from './app-server';
import { seedExtra } from './seed-extra';

const redis = await startRedisServer({ label: 'e2e-serve' });
const client = new Redis(redis.url);
await seedSampleData(client);
await seedExtra(client);
client.disconnect();
const app = await startApp(redis.url, process.env.ASYNQLENS_READ_ONLY ? { ASYNQLENS_READ_ONLY: process.env.ASYNQLENS_READ_ONLY } : {});
console.log(`${app.url}  (Redis ${redis.url})`);
const stop = async () => {
  await app.stop();
  await redis.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
