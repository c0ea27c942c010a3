/**
 * The enqueues of tasks to run now (no unique lock, no group, no later processAt) that one
 * connection is given in one tick of the event loop go to Redis as one call of enqueue.lua per
 * queue, of at most {@link MAX_TASKS} tasks, and each caller gets its own task's outcome.
 *
 * Why: Go's client spreads concurrent enqueues over a pool of connections. On our one
 * connection each command costs this process an ioredis command object, the encoding of its
 * arguments and a timeout timer, and Redis a script call; one call for N tasks pays those
 * once (50 in flight: about 9 → 7 µs of this process' CPU and 5 → 4 µs of Redis' per task),
 * and Redis runs one call while this process builds the next (see MAX_TASKS). Nothing else
 * changes: Redis writes each task as asynq's enqueue script
 * does (EXISTS, then HSET and LPUSH), in the order the enqueues were issued, so the keys and
 * bytes are those N calls of one task would leave; a task whose ID is taken gets code 0 and
 * only its caller an ErrTaskIDConflict; options are checked before a task joins, so a refused
 * option fails its caller alone. A script runs whole or not at all, so no task is ever half
 * written. A call that fails (Redis lost, stalled or refusing) fails every task in it, each
 * with that error, as each would have failed alone on the same connection.
 * A single enqueue is the call of one task: the plan planEnqueue makes is that call.
 */
import type { RedisClient } from '../redis-client';
import * as k from '../keys';
import { asArray, asNumber } from '../reply';
import { sendWritesNow } from '../redis-write-coalescing';
import { runScript } from '../scripts';
import { isCluster } from '../topology';
import { registerAndRun, type ScriptCall } from './register-and-run';

/**
 * Tasks per call at most. A full call is written at once, so that Redis runs it while this
 * process builds the next: with 50 enqueues in flight, one call of all 50 leaves Redis and
 * this process waiting on each other in turn (about 85,000/s with Redis on one core and this
 * process on the other), calls of at most 16 keep both busy (about 100,000/s; 32 alike, 8
 * about 90,000/s). Each task costs Redis about 4 µs, so a call holds it well under 0.1 ms.
 */
export const MAX_TASKS = 16;

/** An empty enqueue.lua call for the queue of `one` (a call of one task, as planEnqueue makes). */
export function emptyCall(one: ScriptCall): ScriptCall {
  return { script: 'enqueue', keys: [one.keys[0]!], args: [one.args[0]!] };
}

/** Appends the task of `one` to `call` (both enqueue.lua calls for the same queue); returns its tasks. */
export function joinTask(call: ScriptCall, one: ScriptCall): number {
  call.keys.push(one.keys[1]!);
  call.args.push(one.args[1]!, one.args[2]!, one.args[3]!);
  return call.keys.length - 1;
}

/** The per-task codes of an enqueue.lua reply, checked against the tasks sent. */
export function taskCodes(reply: unknown, tasks: number): number[] {
  const codes = asArray(reply, 'enqueue').map((c) => asNumber(c));
  if (codes.length !== tasks || codes.some((c) => c !== 0 && c !== 1)) {
    throw new Error(`enqueue: unexpected reply for ${tasks} tasks: ${JSON.stringify(codes)}`);
  }
  return codes as number[];
}

interface Call extends ScriptCall {
  queue: string;
  waiters: { resolve: (code: number) => void; reject: (err: unknown) => void }[];
}

/** A connection's calls being filled in this tick, by queue, and whether their sending is due. */
interface Tick {
  calls: Map<string, Call>;
  due: boolean;
}

const ticks = new WeakMap<RedisClient, Tick>();

/**
 * Adds `one`, the enqueue.lua call of one task to `queue` (keys [pending, task], args [queue,
 * msg, id, now]), to this tick's call for the queue, and resolves to the task's code: 1
 * enqueued, 0 its ID is taken. The call is sent at the end of the tick, or at once when full.
 * Rejects with the call's error (ReplyLostError, NotSentError, a Redis error).
 */
export function enqueueNow(redis: RedisClient, queue: string, one: ScriptCall): Promise<number> {
  let tick = ticks.get(redis);
  if (!tick) ticks.set(redis, (tick = { calls: new Map(), due: false }));
  if (!tick.due) {
    tick.due = true;
    process.nextTick(sendAll, redis, tick);
  }
  let call = tick.calls.get(queue);
  if (!call) {
    call = Object.assign(emptyCall(one), { queue, waiters: [] });
    tick.calls.set(queue, call);
  }
  joinTask(call, one);
  const { waiters } = call;
  const code = new Promise<number>((resolve, reject) => waiters.push({ resolve, reject }));
  if (waiters.length >= MAX_TASKS) {
    tick.calls.delete(queue);
    send(redis, call);
    if (!isCluster(redis)) sendWritesNow(redis);
  }
  return code;
}

function sendAll(redis: RedisClient, tick: Tick): void {
  tick.due = false;
  for (const call of tick.calls.values()) send(redis, call);
  tick.calls.clear();
}

/**
 * One round trip: on a single Redis the script registers the queue itself (asynq:queues as its
 * last key); on a Cluster, where asynq:queues is in another slot, SADD goes beside it.
 */
function send(redis: RedisClient, call: Call): void {
  const { waiters } = call;
  let reply: Promise<unknown>;
  if (isCluster(redis)) {
    reply = registerAndRun(redis, call.queue, call);
  } else {
    call.keys.push(k.ALL_QUEUES);
    reply = runScript(redis, 'enqueue', call.keys, call.args);
  }
  reply.then(
    (r) => {
      let codes: number[];
      try {
        codes = taskCodes(r, waiters.length);
      } catch (err) {
        for (const w of waiters) w.reject(err);
        return;
      }
      for (let i = 0; i < waiters.length; i++) waiters[i]!.resolve(codes[i]!);
    },
    (err: unknown) => {
      for (const w of waiters) w.reject(err);
    },
  );
}
