/**
 * How the queue stats read sizes its script calls from the time Redis reports for each.
 */
import { describe, expect, it } from 'vitest';
import { callsInFlight, TARGET_CALL_US } from '@/lib/asynq/call-sizer';
import { FIRST_CHUNK, MAX_CHUNK, MIN_CHUNK, nextChunkSize, readInChunks } from '@/lib/asynq/inspector/queue-stats-chunks';

const calls = (...c: [queues: number, elapsedUs: number][]) => c.map(([queues, elapsedUs]) => ({ queues, elapsedUs }));

describe('nextChunkSize', () => {
  it('fits the target at the measured cost, at most doubling', () => {
    expect(nextChunkSize(100, calls([100, 2000]))).toBe(TARGET_CALL_US / 20); // 20 µs a queue
    expect(nextChunkSize(100, calls([100, 500]))).toBe(200); // 5 µs a queue would fit 300
  });

  it('halves at once on a wave of costly queues, never below MIN_CHUNK', () => {
    expect(nextChunkSize(200, calls([200, 12_000], [200, 12_000]))).toBe(100);
    expect(nextChunkSize(MIN_CHUNK, calls([MIN_CHUNK, 50_000]))).toBe(MIN_CHUNK);
  });

  it('takes the median call: one descheduled call does not shrink the rest', () => {
    expect(nextChunkSize(75, calls([75, 1000], [75, 1000], [75, 9000]))).toBe(75);
  });

  it("leaves out a wave's short last chunk", () => {
    expect(nextChunkSize(100, calls([100, 1000], [3, 200]))).toBe(100);
  });

  it('never passes MAX_CHUNK', () => {
    expect(nextChunkSize(MAX_CHUNK, calls([MAX_CHUNK, 10]))).toBe(MAX_CHUNK);
  });
});

describe('readInChunks', () => {
  const names = Array.from({ length: 10_000 }, (_, i) => `q${i}`);

  /**
   * A Redis that spends 20 µs a queue and answers each call on a later tick, in order; it
   * records each call's size and how many calls were outstanding when it was sent.
   */
  function fakeRedis(usPerQueue = 20) {
    const sent: { queues: number; inFlight: number }[] = [];
    /** Each call's size next to the size of the last call answered before it was sent. */
    const growth: [queues: number, lastAnswered: number][] = [];
    let inFlight = 0;
    let lastAnswered = 0;
    const read = (chunk: string[]) => {
      inFlight++;
      sent.push({ queues: chunk.length, inFlight });
      growth.push([chunk.length, lastAnswered]);
      return new Promise<{ rows: string[]; elapsedUs: number }>((resolve) =>
        setImmediate(() => {
          inFlight--;
          lastAnswered = chunk.length;
          resolve({ rows: chunk, elapsedUs: chunk.length * usPerQueue });
        }),
      );
    };
    return { sent, growth, read };
  }

  it('keeps the order, opens as many calls as the in-flight budget allows and sizes each from the answers', async () => {
    const redis = fakeRedis();
    const rows = await readInChunks({}, names, redis.read);
    expect(rows).toEqual(names);
    expect(redis.sent[0]).toEqual({ queues: FIRST_CHUNK, inFlight: 1 });
    // Calls of 1 ms each (50 queues at 20 µs): 4 outstanding at most.
    expect(Math.max(...redis.sent.map((c) => c.inFlight))).toBe(callsInFlight(TARGET_CALL_US));
    // One call, then a window of 2, then of 3 as the first answers come in.
    expect(redis.sent.slice(0, 5).map((c) => c.inFlight)).toEqual([1, 1, 2, 2, 3]);
    for (const c of redis.sent.slice(4, -1)) expect(c.queues).toBe(TARGET_CALL_US / 20);
  });

  it('never sends more than twice the queues of a call answered before', async () => {
    const redis = fakeRedis(1); // cheap queues: the size grows as fast as allowed
    // Cheap calls keep the most calls outstanding (MAX_CALLS_IN_FLIGHT), each sent before the
    // answers that would let it grow: enough names for the size to reach its bound anyway.
    await readInChunks({}, Array.from({ length: 30_000 }, (_, i) => `q${i}`), redis.read);
    for (const [queues, lastAnswered] of redis.growth.slice(1)) expect(queues).toBeLessThanOrEqual(Math.min(2 * lastAnswered, MAX_CHUNK));
    expect(Math.max(...redis.sent.map((c) => c.queues))).toBe(MAX_CHUNK);
  });

  it("sends a measured owner's first calls at once, as many as the in-flight budget allows (one round trip for a small deployment)", async () => {
    const owner = {};
    const first = fakeRedis();
    await readInChunks(owner, names.slice(0, 120), first.read);
    expect(first.sent.map((c) => c.queues)).toEqual([60, 50, 10]);
    const second = fakeRedis();
    await readInChunks(owner, names.slice(0, 120), second.read);
    expect(second.sent).toEqual([
      { queues: 50, inFlight: 1 },
      { queues: 50, inFlight: 2 },
      { queues: 20, inFlight: 3 },
    ]);
  });

  it('starts the next listing of the same owner at the size learned', async () => {
    const owner = {};
    const first = fakeRedis();
    await readInChunks(owner, names.slice(0, 500), first.read);
    const second = fakeRedis();
    await readInChunks(owner, names.slice(0, 500), second.read);
    expect(first.sent[0]!.queues).toBe(FIRST_CHUNK);
    expect(second.sent[0]!.queues).toBe(TARGET_CALL_US / 20);
  });

  it('sends again, first, the queues a call left unread at its time budget, and shrinks to fit', async () => {
    // Queues 2000-2999 cost ten times as much: a call sized on cheap ones stops at 2 ms.
    const cost = (name: string) => (Number(name.slice(1)) >= 2000 && Number(name.slice(1)) < 3000 ? 200 : 20);
    const sent: string[][] = [];
    const answered: number[] = [];
    const read = (chunk: string[]) => {
      sent.push(chunk);
      let us = 0;
      let n = 0;
      // The script checks its clock after every queue here; it reads at least one.
      while (n < chunk.length && (n === 0 || us < 2000)) us += cost(chunk[n++]!);
      answered.push(n);
      return new Promise<{ rows: string[]; elapsedUs: number }>((resolve) => setImmediate(() => resolve({ rows: chunk.slice(0, n), elapsedUs: us })));
    };
    const rows = await readInChunks({}, names, read);
    expect(rows).toEqual(names);
    // Every name was read exactly once, though some were sent twice.
    const readNames = sent.flatMap((chunk, i) => chunk.slice(0, answered[i]));
    expect(readNames.sort()).toEqual([...names].sort());
    expect(answered.some((n, i) => n < sent[i]!.length)).toBe(true);
    // Inside the costly stretch calls shrink to fit its 200 µs a queue (5, raised to MIN_CHUNK).
    const inside = sent.filter((chunk) => Number(chunk[0]!.slice(1)) >= 2200 && Number(chunk[0]!.slice(1)) < 2900).map((c) => c.length);
    expect(Math.max(...inside)).toBeLessThanOrEqual(MIN_CHUNK);
  });

  it('fails with the first failed call and sends nothing after it', async () => {
    let calls = 0;
    const read = (chunk: string[]) => {
      calls++;
      return calls === 3 ? Promise.reject(new Error('lost')) : Promise.resolve({ rows: chunk, elapsedUs: chunk.length * 20 });
    };
    await expect(readInChunks({}, names, read)).rejects.toThrow('lost');
    const after = calls;
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(after);
  });
});
