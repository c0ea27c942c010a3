/**
 * How many queues one call of the stats script reads. One call over every queue blocks Redis
 * for as long as the script runs (about 15 µs a queue: 75 ms at 5,000 queues, 375 ms at
 * 25,000), so the queues are read in chunks sized by the time Redis itself reports for each
 * call (the script returns its own elapsed time), aiming at the one call target
 * (call-sizer.ts, 1 ms), so that even a wave of queues three times as costly as the last stays
 * under the 5 ms rule. Chunks are pipelined in waves of 1, 2, then MAX_CALLS_IN_FLIGHT calls
 * per round trip (Redis runs a pipeline's calls back to back, so a wave holds other clients
 * for at most its calls' time), each wave sized by what the previous one measured.
 *
 * The size learned is kept per Redis client, so the next listing starts at it: a deployment
 * whose queues fit in one chunk is read in one script call (SSCAN + one EVALSHA, two round
 * trips) from the first listing on — always up to MIN_CHUNK queues, usually up to 50-65.
 */
import { MAX_CALLS_IN_FLIGHT, TARGET_CALL_US } from '../call-sizer';

/** Queues in the first call on a client not measured yet: about 1 ms without groups. */
export const FIRST_CHUNK = 60;
/**
 * The smallest chunk, whatever the measurements say: 40 queues cost about 0.8 ms, and 2.8 ms
 * even if every one has the 32 or more aggregation groups that bound the script's work per
 * queue. So up to 40 queues are always one call, and a noisy measure cannot split them.
 */
export const MIN_CHUNK = 40;
/** The largest chunk, whatever the measurements say: 12,000 keys in one call. */
export const MAX_CHUNK = 1_000;

/** One script call's answer: the rows of its queues, in order, and Redis' own time for it. */
export interface ChunkReply<T> {
  rows: T[];
  elapsedUs: number;
}

/** Every call of one listing, for tests and the bench: queues read and Redis time, by call. */
export interface ChunkCall {
  queues: number;
  elapsedUs: number;
}

const learned = new WeakMap<object, number>();

/**
 * The next chunk size: as many queues as fit in TARGET_CALL_US at the last wave's per-queue
 * cost, moving at most by half or double per wave, within MIN_CHUNK and MAX_CHUNK. The cost
 * is the median over the wave's calls, not the worst: on a busy machine a call during which
 * Redis' process was descheduled reads as slow, and one such call would shrink every later one. Queues cost
 * 15-25 µs each, up to about three times that with 32 or more aggregation groups (the
 * script's bound), so a wave of costly queues halves the size at once. A wave's short last
 * chunk is left out when full ones exist: its fixed cost, spread over few queues, would read
 * as costly queues.
 */
export function nextChunkSize(size: number, calls: readonly ChunkCall[]): number {
  const full = calls.filter((c) => c.queues * 2 >= size);
  const perQueue = (full.length > 0 ? full : calls).map((c) => c.elapsedUs / Math.max(1, c.queues)).sort((x, y) => x - y);
  const median = Math.max(1, perQueue[Math.floor(perQueue.length / 2)] ?? 1);
  const fit = Math.floor(TARGET_CALL_US / median);
  return Math.max(MIN_CHUNK, Math.ceil(size / 2), Math.min(fit, size * 2, MAX_CHUNK));
}

/**
 * Reads `names` in chunks, `readWave` sending one wave of chunks in one pipeline and answering
 * each chunk's rows and time. `owner` (the Redis client) keys the learned chunk size. Round
 * trips: one per wave — one for up to 3 chunks of the learned size (one of FIRST_CHUNK at
 * first), about 135 for 25,000 queues (about 400 calls of 50-65 queues, 3 per wave). Rows come
 * back in the order of `names`.
 */
export async function readInChunks<T>(
  owner: object,
  names: readonly string[],
  readWave: (chunks: string[][]) => Promise<ChunkReply<T>[]>,
  onCall?: (call: ChunkCall) => void,
): Promise<T[]> {
  const known = learned.get(owner);
  let size = known ?? FIRST_CHUNK;
  // Waves grow from one call only while nothing is measured; once the size is learned, a
  // deployment of up to MAX_CALLS_IN_FLIGHT chunks is one round trip after SSCAN.
  let wave = known === undefined ? 1 : MAX_CALLS_IN_FLIGHT;
  const rows: T[] = [];
  for (let at = 0; at < names.length; ) {
    const chunks: string[][] = [];
    for (let c = 0; c < wave && at < names.length; c++, at += size) chunks.push(names.slice(at, at + size));
    const replies = await readWave(chunks);
    const calls = replies.map((r, i) => ({ queues: chunks[i]!.length, elapsedUs: r.elapsedUs }));
    for (const r of replies) for (const row of r.rows) rows.push(row);
    if (onCall) calls.forEach(onCall);
    size = nextChunkSize(size, calls);
    wave = Math.min(wave * 2, MAX_CALLS_IN_FLIGHT);
  }
  learned.set(owner, size);
  return rows;
}
