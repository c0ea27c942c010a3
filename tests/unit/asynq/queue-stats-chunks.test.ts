/**
 * How the queue stats read sizes its script calls from the time Redis reports for each.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CALLS_IN_FLIGHT, TARGET_CALL_US } from '@/lib/asynq/call-sizer';
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

  it('keeps the order, grows the waves up to MAX_CALLS_IN_FLIGHT and sizes each from the last', async () => {
    const waves: number[][] = [];
    // A Redis that spends 20 µs a queue.
    const rows = await readInChunks({}, names, (chunks) => {
      waves.push(chunks.map((c) => c.length));
      return Promise.resolve(chunks.map((c) => ({ rows: c, elapsedUs: c.length * 20 })));
    });
    expect(rows).toEqual(names);
    expect(waves[0]).toEqual([FIRST_CHUNK]);
    expect(waves.map((w) => w.length).slice(0, 5)).toEqual([1, 2, 4, 8, 16].map((n) => Math.min(n, MAX_CALLS_IN_FLIGHT)));
    for (const w of waves.slice(1)) for (const n of w.slice(0, -1)) expect(n).toBe(TARGET_CALL_US / 20);
  });

  it('sends a measured owner\'s first wave MAX_CALLS_IN_FLIGHT calls at once (one round trip for a small deployment)', async () => {
    const owner = {};
    const wavesOf = async () => {
      const waves: number[] = [];
      await readInChunks(owner, names.slice(0, 120), (chunks) => {
        waves.push(chunks.length);
        return Promise.resolve(chunks.map((c) => ({ rows: c, elapsedUs: c.length * 20 })));
      });
      return waves;
    };
    expect(await wavesOf()).toEqual([1, 2]); // 60, then 50 + 10
    expect(await wavesOf()).toEqual([3]); // 50 + 50 + 20
  });

  it('starts the next listing of the same owner at the size learned', async () => {
    const owner = {};
    const first: number[] = [];
    const read = (log: number[]) => (chunks: string[][]) => {
      log.push(...chunks.map((c) => c.length));
      return Promise.resolve(chunks.map((c) => ({ rows: c, elapsedUs: c.length * 20 })));
    };
    await readInChunks(owner, names.slice(0, 500), read(first));
    const second: number[] = [];
    await readInChunks(owner, names.slice(0, 500), read(second));
    expect(first[0]).toBe(FIRST_CHUNK);
    expect(second[0]).toBe(TARGET_CALL_US / 20);
    expect(second[0]).not.toBe(FIRST_CHUNK);
  });
});
