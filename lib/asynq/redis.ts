/**
 * Creates the ioredis connection the core uses, tuned for a dashboard that shares Redis with
 * production workers: a request fails fast when Redis is gone or stalled instead of waiting in
 * a queue, and no command is ever sent twice because the connection dropped.
 *
 * What ioredis 5.9 does on its own (redis/event_handler.js, Redis.js), and what we change:
 * - A command written to the socket sits in `commandQueue` until its reply. When the socket
 *   closes, that queue becomes `prevCommandQueue`, and by default (autoResendUnfulfilledCommands)
 *   it is written again on the next connection. Redis may well have run it already (only the
 *   reply was lost), so a mutation would run twice: an enqueue without an ID makes two tasks.
 * - A command issued while not connected waits in `offlineQueue` and is sent on reconnect;
 *   with maxRetriesPerRequest 1 it is failed only after the second failed reconnect attempt
 *   (up to ~4 s with our backoff), and even a command whose caller already saw "Command timed
 *   out" is still sent later.
 * - A reply that never comes fails the command after `commandTimeout`, but the command stays
 *   queued on the socket, so the late reply is still matched to it (replies never shift).
 */
import { Redis, type Cluster, type RedisOptions } from 'ioredis';
import { brandErrorClass } from './error-brand';
import { coalesceSocketWrites } from './redis-write-coalescing';

/**
 * Why 3 s: every command the dashboard sends is bounded to a few milliseconds of Redis time
 * (bulk batches ≈ 2 ms, scans in COUNT-limited steps, scripts over ≤ 500 tasks). An answer
 * 1000× slower than normal means Redis is stalled (DEBUG SLEEP, CLIENT PAUSE, a long script of
 * someone else's, a fork on a starved host), and a person looking at a spinner deserves to be told.
 */
export const DEFAULT_COMMAND_TIMEOUT_MS = 3000;

export interface ConnectOptions {
  /** `redis://[user:password@]host:port/db` or `rediss://` for TLS. */
  url: string;
  /** Milliseconds before a command counts as failed (default {@link DEFAULT_COMMAND_TIMEOUT_MS}). */
  commandTimeoutMs?: number | undefined;
  /** Extra ioredis options (TLS files, name, ...). */
  redisOptions?: RedisOptions;
}

/**
 * The connection was lost after the command was written and before its reply arrived: Redis
 * may or may not have run it. Never resent (see the file comment).
 */
export class ReplyLostError extends Error {
  override readonly name = 'ReplyLostError';
  constructor() {
    super('connection to Redis lost before it replied');
  }
}
brandErrorClass(ReplyLostError, 'ReplyLostError');

/** The command was never written to Redis: it certainly did not run. */
export class NotSentError extends Error {
  override readonly name = 'NotSentError';
  constructor(reason = 'not connected to Redis (reconnecting)') {
    super(reason);
  }
}
brandErrorClass(NotSentError, 'NotSentError');

/**
 * Every option that decides how a connection behaves when Redis fails, without the address:
 * a plain connection (createRedis) and each node connection of a Sentinel or Cluster client use
 * the same. Options only cover safety (no resend); the speed of failing needs the listeners of
 * {@link guardConnection} too, which createRedis installs.
 */
export function baseRedisOptions({ commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS }: { commandTimeoutMs?: number | undefined } = {}): RedisOptions {
  return {
    // Nothing connects at import or build time (there is no Redis then); the first command does.
    lazyConnect: true,
    // A command is never written twice: one whose reply was lost may have run (see above).
    autoResendUnfulfilledCommands: false,
    // Needed for the very first command of a lazy connection, issued while it is still
    // connecting. guardConnection turns it off once that first attempt is over, so later
    // commands issued while disconnected fail at once instead of queueing.
    enableOfflineQueue: true,
    // Where the offline queue is still on (a client without guardConnection), give up on a
    // queued command after one failed reconnect rather than ioredis' default 20.
    maxRetriesPerRequest: 1,
    // A stalled Redis (DEBUG SLEEP, CLIENT PAUSE, a long script) fails the request after this;
    // lib/server then answers at once while one PING probes (redis-stall.ts).
    commandTimeout: commandTimeoutMs,
    // A blackholed host (no RST, no answer) fails the connect after 3 s, not the OS's ~2 min.
    connectTimeout: 3000,
    // Reconnect forever in the background, 200 ms, 400 ms, … at most every 2 s: requests work
    // again as soon as Redis is back, without restarting the app. Cost when down: one TCP
    // connect attempt per period.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  };
}

/** The two private ioredis members guardConnection needs (present in ioredis 5.x). */
interface Queues {
  flushQueue(error: Error, options?: { offlineQueue?: boolean; commandQueue?: boolean }): void;
  options: RedisOptions;
}

/**
 * Makes a connection fail fast on a drop instead of leaving commands pending:
 * - on `close`, commands written on a connection that was ready fail at once with
 *   {@link ReplyLostError} (ioredis would otherwise keep them until commandTimeout, or resend
 *   them with autoResendUnfulfilledCommands), and commands still waiting to be written fail with
 *   {@link NotSentError};
 * - after the first connection attempt (ready or closed), the offline queue is off: a command
 *   issued while reconnecting is refused at once ("Stream isn't writeable …"), never queued.
 * Both run on events ioredis emits on the next tick after the socket closes, before its
 * reconnect timer (≥ 200 ms) can fire, so they act on the closed connection's queues only.
 * It also sends the commands issued in one tick in one socket write (redis-write-coalescing.ts).
 */
export function guardConnection<T extends Redis>(redis: T): T {
  const q = redis as unknown as Queues;
  if (typeof q.flushQueue !== 'function') throw new Error('guardConnection: this ioredis has no flushQueue (expected 5.x)');
  let ready = false;
  redis.on('ready', () => {
    ready = true;
    q.options.enableOfflineQueue = false;
  });
  redis.on('close', () => {
    refuseUntilReady(redis, 'connection to Redis closed before the command was sent');
    // Only a ready connection carries our commands: before ready its queue holds the handshake
    // (INFO, CLIENT SETINFO), which ioredis itself discards on the next connect.
    if (ready) q.flushQueue(new ReplyLostError(), { offlineQueue: false });
    ready = false;
  });
  return coalesceSocketWrites(redis);
}

/**
 * Ends what a failed connect attempt left waiting: the offline queue goes off (a command issued
 * before the next `ready` is refused at once), and the commands in it, never written, fail as
 * not sent with `reason`.
 */
export function refuseUntilReady(redis: Redis, reason: string): void {
  const q = redis as unknown as Queues;
  q.options.enableOfflineQueue = false;
  q.flushQueue(new NotSentError(reason), { commandQueue: false });
}

/** A lazily connecting client with {@link baseRedisOptions} and {@link guardConnection}. */
export function createRedis({ url, commandTimeoutMs, redisOptions = {} }: ConnectOptions): Redis {
  return guardConnection(new Redis(url, { ...baseRedisOptions({ commandTimeoutMs }), ...redisOptions }));
}

/**
 * Waits for a connection that is between attempts to be usable again, so that the first
 * request after Redis comes back succeeds instead of failing while the client sleeps out its
 * backoff (up to 2 s): while a reconnect is pending, it cancels the backoff timer and connects now;
 * while a connect is under way, it waits for it; a lazy client that never connected (`wait`)
 * starts connecting. Settles (never rejects) on ready or on the attempt's failure; bounded by
 * connectTimeout plus the ready check's commandTimeout (for a Cluster, by slotsRefreshTimeout
 * plus the ready check's CLUSTER INFO).
 * Cost while Redis is down: one TCP connect attempt per call (concurrent callers share one;
 * a Cluster tries its seed nodes one after another).
 */
export async function connectNow(client: Redis | Cluster): Promise<void> {
  // Both kinds keep these members under the same names (ioredis 5.x): status, connect(), the
  // backoff timer `reconnectTimeout`, and the ready / close events of each attempt.
  const c = client as unknown as { reconnectTimeout: ReturnType<typeof setTimeout> | null };
  // Closing on purpose to reconnect (a Sentinel +switch-master, READONLY after a demotion): the
  // status says `ready` until the socket's close event, but nothing can be written any more.
  // Wait for that close (it follows within milliseconds), then reconnect now.
  if (closingToReconnect(client)) await attemptSettled(client);
  // A Cluster whose ready check failed (a node still saying cluster_state:fail) sits in `close`
  // with its backoff timer pending rather than in `reconnecting`.
  if (client.status === 'reconnecting' || (client.status === 'close' && c.reconnectTimeout)) {
    if (c.reconnectTimeout) clearTimeout(c.reconnectTimeout);
    c.reconnectTimeout = null;
  } else if (client.status !== 'wait') {
    const silent = client instanceof Redis && sentinelsSilent.has(client);
    if ((client.status === 'connecting' || client.status === 'connect') && !silent) await attemptSettled(client);
    return;
  }
  const settled = attemptSettled(client);
  client.connect().catch(() => undefined);
  await settled;
}

/** ioredis' error for a round in which no sentinel answered (it then retries in the same attempt). */
export const NO_SENTINEL_ANSWERED = /^All sentinels are unreachable/;

/**
 * Sentinel clients whose connect attempt under way already had a round in which no sentinel
 * answered: ioredis waits its sentinelRetryStrategy delay inside the attempt, which nothing
 * outside can cut short, so a request does not wait for the next round (see connectNow).
 */
const sentinelsSilent = new WeakSet<Redis>();

/** Marks (or clears) that the attempt under way met silent sentinels; see {@link sentinelsSilent}. */
export function noteSentinelsSilent(redis: Redis, silent: boolean): void {
  if (silent) sentinelsSilent.add(redis);
  else sentinelsSilent.delete(redis);
}

/** A plain client that still says `ready` while its socket is already closing. */
function closingToReconnect(client: Redis | Cluster): boolean {
  if (!(client instanceof Redis) || client.status !== 'ready') return false;
  const stream = (client as unknown as { stream?: { writable: boolean } }).stream;
  return stream !== undefined && !stream.writable;
}

/** Whether connectNow has anything to do: false for a connected client (the usual case). */
export function needsConnect(client: Redis | Cluster): boolean {
  return client.status !== 'ready' || closingToReconnect(client);
}

/**
 * Resolves when the connect attempt under way ends, either way. Behind Sentinel, a round in which
 * no sentinel answered counts as an end: ioredis retries it without closing.
 */
function attemptSettled(client: Redis | Cluster): Promise<void> {
  return new Promise<void>((resolve) => {
    const failed = (err: Error) => {
      if (NO_SENTINEL_ANSWERED.test(err.message)) done();
    };
    const done = () => {
      client.off('ready', done);
      client.off('close', done);
      client.off('error', failed);
      resolve();
    };
    client.once('ready', done);
    client.once('close', done);
    client.on('error', failed);
  });
}
