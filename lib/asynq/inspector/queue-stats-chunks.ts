/**
 * How many queues one call of the stats script reads. One call over every queue blocks Redis
 * for as long as the script runs (about 13-20 µs a queue: 75 ms at 5,000 queues, 375 ms at
 * 25,000), so the queues are read in chunks sized by the time Redis itself reports for each
 * call (the script returns its own elapsed time), aiming at the one call target
 * (call-sizer.ts, 1 ms); a call that meets costlier queues than it was sized for, or a Redis
 * slowed down meanwhile, stops at the script's time budget (CALL_BUDGET_US, 2 ms) and answers
 * the queues it read, so no call nears the 5 ms rule. Calls are outstanding as the in-flight
 * budget allows (call-sizer.ts: 4 ms of Redis time, 4 calls of 1 ms), opening one more per
 * answer from 1 while nothing is measured; each answer sends the next call at once, sized by
 * what that answer measured. So Redis always has the next call queued (it never waits for this
 * process, which on a busy machine may itself wait for a CPU), while another client still waits
 * for at most the budget, as with waves in one pipeline, but without a pause between waves.
 *
 * The size learned is kept per Redis client, so the next listing starts at it: a deployment
 * whose queues fit in one chunk is read in one script call (SSCAN + one EVALSHA, two round
 * trips) from the first listing on — always up to MIN_CHUNK queues, usually up to 50-75.
 */
import { callsInFlight, TARGET_CALL_US } from '../call-sizer';

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

/** Answered calls whose median cost sizes the next. */
const RECENT = 3;

/**
 * The next chunk size after a call of `size` queues: as many queues as fit in TARGET_CALL_US
 * at the per-queue cost of `calls` (the last few answered, that one included), moving at most
 * by half or double of `size`, within MIN_CHUNK and MAX_CHUNK. The cost is the median over
 * those calls, not the worst: on a busy machine a call during which Redis' process was
 * descheduled reads as slow, and one such call would shrink every later one. Queues cost
 * 13-25 µs each, up to about three times that with 32 or more aggregation groups (the
 * script's bound), so a run of costly queues halves the size at once. A short chunk is left
 * out when full ones exist: its fixed cost, spread over few queues, would read as costly
 * queues.
 */
export function nextChunkSize(size: number, calls: readonly ChunkCall[]): number {
  const full = calls.filter((c) => c.queues * 2 >= size);
  const perQueue = (full.length > 0 ? full : calls).map((c) => c.elapsedUs / Math.max(1, c.queues)).sort((x, y) => x - y);
  const median = Math.max(1, perQueue[Math.floor(perQueue.length / 2)] ?? 1);
  const fit = Math.floor(TARGET_CALL_US / median);
  return Math.max(MIN_CHUNK, Math.ceil(size / 2), Math.min(fit, size * 2, MAX_CHUNK));
}

/** The size after a call that stopped at its time budget: what fits the target at its cost. */
function sizeAfterStop(call: ChunkCall): number {
  return Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, Math.floor(TARGET_CALL_US / Math.max(1, call.elapsedUs / call.queues))));
}

/**
 * Reads `names` in chunks, `readChunk` sending one chunk's call and answering its rows and time.
 * `owner` (the Redis client) keys the learned chunk size. Up to callsInFlight(last call's time)
 * calls are outstanding (1, then 2, 3, ... on a client not measured yet); each answer sizes and
 * sends the next call, never more than twice the queues of the call it measured. A call may
 * answer fewer rows than it was sent queues (the script stopped at its time budget: costlier
 * queues than measured, or a slower Redis): the rest are sent again first, and the size shrinks
 * to what fits at that call's cost. Round trips overlap: about 330-500 calls of 50-75 queues for
 * 25,000 queues, 4 at a time. Rows come back in the order of `names`. The first failed call
 * fails the listing (calls in flight are left to finish).
 */
export async function readInChunks<T>(
  owner: object,
  names: readonly string[],
  readChunk: (chunk: string[]) => Promise<ChunkReply<T>>,
  onCall?: (call: ChunkCall) => void,
): Promise<T[]> {
  const known = learned.get(owner);
  let size = known ?? FIRST_CHUNK;
  // While nothing is measured the window opens one call per answer; once the size is learned, a
  // deployment of up to callsInFlight(TARGET_CALL_US) chunks is one round trip after SSCAN.
  let window = known === undefined ? 1 : callsInFlight(TARGET_CALL_US);
  const rows = new Array<T>(names.length);
  /** The last answered calls, whose median cost sizes the next. */
  const recent: ChunkCall[] = [];
  await new Promise<void>((resolve, reject) => {
    let at = 0;
    let inFlight = 0;
    let failed = false;
    /** [from, to) ranges of names sent but not read: a call stopped at its budget. */
    const unread: [number, number][] = [];
    const fail = (err: unknown) => {
      if (!failed) reject(err instanceof Error ? err : new Error(String(err)));
      failed = true;
    };
    const send = () => {
      while (!failed && inFlight < window && (unread.length > 0 || at < names.length)) {
        let from: number;
        let to: number;
        const again = unread.shift();
        if (again !== undefined) {
          [from, to] = again;
          if (to - from > size) unread.unshift([from + size, to]);
          to = Math.min(to, from + size);
        } else {
          from = at;
          to = at = Math.min(names.length, at + size);
        }
        const asked = to - from;
        inFlight++;
        readChunk(names.slice(from, to)).then((reply) => {
          inFlight--;
          if (failed) return;
          const read = Math.min(reply.rows.length, asked);
          if (read === 0) return fail(new Error(`queue stats: a call of ${asked} queues answered none`));
          for (let i = 0; i < read; i++) rows[from + i] = reply.rows[i]!;
          const call = { queues: read, elapsedUs: reply.elapsedUs };
          onCall?.(call);
          recent.push(call);
          if (recent.length > RECENT) recent.shift();
          if (read < asked) {
            unread.push([from + read, to]);
            size = Math.min(size, sizeAfterStop(call));
          } else if (call.queues * 2 >= size) {
            // A short last chunk says little of a queue's cost (its fixed cost is spread thin).
            size = nextChunkSize(call.queues, recent);
          }
          window = Math.min(window + 1, callsInFlight(reply.elapsedUs));
          if (at >= names.length && unread.length === 0 && inFlight === 0) resolve();
          else send();
        }, fail);
      }
    };
    if (names.length === 0) resolve();
    else send();
  });
  learned.set(owner, size);
  return rows;
}
