/**
 * A second worker process that the demo kills with SIGKILL now and then, mid-task, the way a
 * node dies in production: its tasks stay active, their leases run out (the dashboard marks
 * them orphaned), and the main server's recoverer retries them with `asynq: task lease expired`.
 * Usage: node --import tsx crashy-worker.ts <redis-url>
 */
import { Redis } from 'ioredis';
import { Server, ServeMux } from '../../lib/asynq/worker';
import { demoMux } from './handlers';

const url = process.argv[2];
if (!url) throw new Error('usage: crashy-worker.ts <redis-url>');
const redis = new Redis(url, { maxRetriesPerRequest: 1 });
// A replica of the current release: every handler it has, so a `metrics:rollup` it takes from
// `low` completes (only the older release lacks that one), with transcodes that run a minute so
// a kill finds them active.
const current = demoMux(redis);
const mux = new ServeMux();
for (const p of current.patterns().filter((x) => x !== 'video:transcode')) mux.handle(p, current);
mux.handleFunc('video:transcode', (ctx) => new Promise<void>((resolve) => {
  const t = setTimeout(resolve, 60_000);
  ctx.signal.addEventListener('abort', () => clearTimeout(t));
}));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
await new Server(redis, { concurrency: 2, queues: { low: 1 }, logger: quiet }).start(mux);
