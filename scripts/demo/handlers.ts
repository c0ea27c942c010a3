/**
 * The demo shop's task handlers. Their delays and failure rates are tuned so that within a
 * minute the dashboard shows every state and every kind of failure, and keeps changing.
 */
import type { Redis } from 'ioredis';
import { ServeMux, SkipRetry, type TaskContext } from '../../lib/asynq/worker';

const rand = (min: number, max: number) => min + Math.random() * (max - min);
const chance = (p: number) => Math.random() < p;

/** Waits `ms`, or rejects with the signal's reason (deadline, cancel) when it aborts first. */
function work(ctx: TaskContext, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ctx.signal.aborted) return reject(ctx.signal.reason as Error);
    const t = setTimeout(resolve, ms);
    ctx.signal.addEventListener('abort', () => {
      clearTimeout(t);
      reject(ctx.signal.reason as Error);
    }, { once: true });
  });
}

const json = (b: Uint8Array): Record<string, unknown> => {
  try {
    return JSON.parse(Buffer.from(b).toString()) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** Everything the main server handles. `report:new` is missing on purpose (see producers). */
export function demoMux(redis: Redis): ServeMux {
  return new ServeMux()
    .handleFunc('email:welcome', (ctx) => work(ctx, rand(100, 600)))
    // The prefix handler: email:digest, email:reminder, email:receipt all land here.
    .handleFunc('email', async (ctx, task) => {
      await work(ctx, rand(50, 400));
      if (task.type === 'email:reminder' && chance(0.35)) throw new Error('SMTP 421 4.7.0 mx.example.test: try again later');
    })
    .handleFunc('report:daily', async (ctx, task) => {
      await work(ctx, rand(800, 2500));
      const day = json(task.payload).day;
      await task.resultWriter?.write(JSON.stringify({ rows: Math.floor(rand(100, 5000)), url: `s3://reports/${typeof day === 'string' ? day : 'today'}.csv` }));
    })
    .handleFunc('image:resize', async (ctx, task) => {
      if (chance(0.05)) throw new Error(`unsupported format "heic": ${SkipRetry.message}`, { cause: SkipRetry });
      // Some uploads are huge: with a 1 s timeout they end in `context deadline exceeded`.
      await work(ctx, json(task.payload).large ? rand(900, 2000) : rand(150, 700));
      if (chance(0.25)) throw new Error('image decoder: unexpected EOF');
    })
    .handleFunc('webhook:deliver', async (ctx, task) => {
      await work(ctx, rand(100, 800));
      if (chance(0.3)) throw new Error(`POST ${String(json(task.payload).url)}: 503 Service Unavailable`);
    })
    .handleFunc('notify:batch', async (ctx, task) => {
      await work(ctx, rand(100, 300));
      await task.resultWriter?.write(`sent ${String((json(task.payload).events as unknown[] | undefined)?.length ?? 0)} notifications`);
    })
    .handleFunc('video:transcode', (ctx) => work(ctx, rand(4000, 20_000)))
    // The supplier API times out three times before it answers: the task outlives its 10 s unique
    // lock, a newer sync of the same SKU takes the lock, and the old one shows it held by another.
    .handleFunc('sync:inventory', async (ctx) => {
      await work(ctx, rand(100, 300));
      if (ctx.retryCount < 3) throw new Error('supplier API: i/o timeout');
    })
    .handleFunc('payment:capture', (ctx) => work(ctx, rand(50, 200)))
    .handleFunc('invoice:render', async (ctx, task) => {
      await work(ctx, rand(200, 600));
      await task.resultWriter?.write(JSON.stringify({ pages: 2, invoice: json(task.payload).invoice }));
    })
    .handleFunc('metrics:rollup', async (ctx) => {
      await work(ctx, rand(100, 400));
      await redis.incr('demo:rollups');
    })
    .handleFunc('cleanup:sessions', (ctx) => work(ctx, rand(200, 800)))
    .handleFunc('blob', (ctx) => work(ctx, rand(50, 150)))
    .handleFunc('misc:ping', () => {});
}
