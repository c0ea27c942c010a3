/**
 * Commands issued in one tick leave in one socket write (at most 16 per write), and each stays
 * its own command: its own reply or error, its own NOSCRIPT fallback, and a connection lost
 * while commands are held fails them at once instead of leaving them waiting
 * (lib/asynq/redis-write-coalescing.ts). On a private redis-server: the suite flushes scripts.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, NotSentError, ReplyLostError } from '@/lib/asynq/redis';
import { sendWritesNow } from '@/lib/asynq/redis-write-coalescing';
import { runScript } from '@/lib/asynq/scripts';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { report, waitFor } from './helpers';

let server: RunningRedis;
let redis: Redis;

/** Counts the writes that reach the socket itself (what becomes one write()/writev() call). */
function socketWrites(r: Redis): { take(): number } {
  const stream = r.stream as unknown as { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
  let n = 0;
  for (const method of ['_write', '_writev'] as const) {
    const original = stream[method].bind(stream);
    stream[method] = (...args: unknown[]) => {
      n += 1;
      original(...args);
    };
  }
  return {
    take() {
      const v = n;
      n = 0;
      return v;
    },
  };
}

beforeAll(async () => {
  server = await startRedisServer({ label: 'write-coalescing' });
  redis = createRedis({ url: server.url });
  await redis.ping();
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

describe('the commands of one tick go out together, each keeping its own reply', () => {
  it('40 commands in one tick: 3 socket writes (16 + 16 + 8), every reply in place, the bad one failing alone', async () => {
    const writes = socketWrites(redis);
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      calls.push(i === 7 ? redis.call('NOSUCHCOMMAND') : redis.echo(`m${i}`));
    }
    const settled = await Promise.allSettled(calls);
    expect(writes.take(), 'socket writes for 40 commands').toBe(3);
    settled.forEach((s, i) => {
      if (i === 7) expect(s.status === 'rejected' && String(s.reason), 'the unknown command').toMatch(/unknown command/i);
      else expect(s, `command ${i}`).toEqual({ status: 'fulfilled', value: `m${i}` });
    });
  });

  it('sendWritesNow sends what is held at once; the rest of the tick follows in one more write', async () => {
    const writes = socketWrites(redis);
    const first = redis.echo('now');
    sendWritesNow(redis);
    expect(writes.take(), 'written before the tick ends').toBe(1);
    const rest = [redis.echo('a'), redis.echo('b')];
    expect(await Promise.all([first, ...rest])).toEqual(['now', 'a', 'b']);
    expect(writes.take(), 'the two later ones').toBe(1);
  });

  it('scripts unknown to Redis: each call of the tick falls back to EVAL on its own and runs once', async () => {
    await redis.script('FLUSH');
    await redis.del('asynq:{wc}:pending');
    const calls = Array.from({ length: 20 }, (_, i) =>
      runScript(redis, 'enqueue', ['asynq:{wc}:pending', `asynq:{wc}:t:id${i}`], ['wc', Buffer.from([i]), `id${i}`, '1700000000000000000']),
    );
    expect(await Promise.all(calls)).toEqual(Array(20).fill([1]));
    expect(await redis.llen('asynq:{wc}:pending'), 'each task enqueued exactly once').toBe(20);
  });

  it('a connection lost with commands held: every one fails at once (reply lost), none waits for the timeout', async () => {
    const started = performance.now();
    const calls = Array.from({ length: 5 }, (_, i) => redis.echo(`lost${i}`));
    // Same tick: the commands are still held in the corked socket when it is destroyed.
    redis.stream.destroy();
    const settled = await Promise.allSettled(calls);
    const ms = Math.round(performance.now() - started);
    report('commands held when the socket closed: all failed', ms);
    for (const s of settled) {
      expect(s.status).toBe('rejected');
      const reason = (s as PromiseRejectedResult).reason as Error;
      expect(reason instanceof ReplyLostError || reason instanceof NotSentError, String(reason)).toBe(true);
    }
    expect(ms, 'failed at once, not after the 3 s command timeout').toBeLessThan(1000);
    await waitFor('the client reconnects', async () => (await redis.ping().catch(() => null)) === 'PONG');
    expect(await redis.echo('back')).toBe('back');
  });
});
