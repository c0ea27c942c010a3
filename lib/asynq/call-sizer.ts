/**
 * The one rule for sizing a long operation's next Redis call (a bulk batch, a scan's slice, a
 * SCAN's COUNT) by what the last call cost, so each call stays near 1 ms of Redis time
 * whatever the items cost (large payloads, a long list walk, a busy server) and never nears the
 * 5 ms a call may take: Redis serves no other client while it runs one call.
 *
 * The cost of an item is taken from the last call alone (its Redis time over its items), so a
 * slow-down shrinks the very next call in proportion; growth is at most ×2 per call, so one
 * quick call on cheap items cannot jump to a size that a slower stretch would make too long.
 * Times are what Redis reports where it can (a script's own TIME), else the call's duration
 * seen by the client, which includes the round trip and is therefore never an under-estimate.
 */

/**
 * Redis time one call should take, µs. Why 1 ms, the low end of 1-2 ms: on a busy machine
 * Redis itself is sometimes preempted in the middle of a call (measured: calls sized at
 * 1.5 ms stretched past 5 ms a few times per thousand at a load average of 6-20), and a call
 * of 1 ms must be stretched fivefold to break the limit; per-call costs are tens of µs.
 */
export const TARGET_CALL_US = 1000;

/**
 * Redis time one long operation may have sent and not yet had answered, µs. Redis runs a
 * client's queued calls back to back (it reads every call waiting on the socket and runs them
 * before the next client's), so while it runs one the next are already there and Redis never
 * waits for this process, which on a busy machine may itself wait for a CPU for milliseconds
 * (measured at a load average of 6-10: 20-40 % of a bulk's time went idle with 3 calls of
 * 1 ms in flight). Another client waits at most for the calls queued ahead of it, about this
 * long: 4 ms, well under the 10 ms a concurrent PING may wait even when a call is stretched.
 */
export const IN_FLIGHT_BUDGET_US = 4000;

/** The most calls of one operation outstanding, however cheap each is. */
export const MAX_CALLS_IN_FLIGHT = 6;

/**
 * How many calls of `callUs` each to keep outstanding: as many as fit in IN_FLIGHT_BUDGET_US,
 * at least 2 (so one is queued while the other runs), at most MAX_CALLS_IN_FLIGHT. Calls of
 * TARGET_CALL_US give 4; a slower server (longer calls) gets fewer.
 */
export function callsInFlight(callUs: number): number {
  return Math.max(2, Math.min(MAX_CALLS_IN_FLIGHT, Math.floor(IN_FLIGHT_BUDGET_US / Math.max(callUs, 1))));
}

/**
 * Where a script that reads its own clock (TIME) stops a call early, µs, returning how far it
 * got for the next call to go on from: a call sized on cheaper items than the ones it meets
 * (or stretched by a busy server) still ends near 2 ms, well under the 5 ms a call may take.
 * Every such script (the bulk batch, the search's range, the move of a list of IDs) takes it.
 */
export const CALL_BUDGET_US = 2000;

export interface CallSizerOptions {
  /** Size of the first call. */
  first: number;
  /** Bounds of every call's size. */
  min: number;
  max: number;
  /** Redis time per call to aim for, µs (default TARGET_CALL_US). */
  targetUs?: number;
}

export interface CallSizer {
  /** The size to ask for in the next call. */
  readonly size: number;
  /** The Redis time that size should take at the last call's cost per item, µs (the target until a call is measured). */
  readonly expectedUs: number;
  /**
   * Reports a finished call: the items it handled and the time it took in µs. A call that
   * handled nothing says nothing about the cost of an item and changes nothing.
   */
  observe(items: number, us: number): void;
}

export function createCallSizer(opts: CallSizerOptions): CallSizer {
  const target = opts.targetUs ?? TARGET_CALL_US;
  const clamp = (n: number) => Math.max(opts.min, Math.min(opts.max, Math.floor(n)));
  let size = clamp(opts.first);
  let perItem: number | undefined;
  return {
    get size() {
      return size;
    },
    get expectedUs() {
      return perItem === undefined ? target : size * perItem;
    },
    observe(items, us) {
      if (items <= 0 || !(us >= 0)) return;
      perItem = Math.max(us, 1) / items;
      size = clamp(Math.min(target / perItem, size * 2));
    },
  };
}

/** Microseconds since `start` (a performance.now() reading): a call's duration as the client saw it. */
export const usSince = (start: number): number => (performance.now() - start) * 1000;
