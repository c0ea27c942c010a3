/**
 * asynq's Client under its Go name: `new Client(redis)`, `enqueue(task, ...options)`, `close()`.
 * A thin shell over enqueueTask and batchEnqueue, which hold the protocol.
 */
import { systemClock, type Clock } from '../clock';
import { closeConnection, openConnection, type RedisConnection } from '../connect-arg';
import type { RedisClient } from '../redis-client';
import type { TaskInfo } from '../types';
import { batchEnqueue, type BatchItemResult } from './batch-enqueue';
import { enqueueTask } from './enqueue';
import type { EnqueueOptions, NewTask } from './options';

/** A task with options of its own, as Go's NewTask(type, payload, opts...) carries them. */
export interface TaskWithOptions extends NewTask {
  options?: EnqueueOptions;
}

export class Client {
  private readonly conn: { redis: RedisClient; owned: boolean };
  private readonly clock: Clock;

  /**
   * `connection` is an ioredis Redis or Cluster, used and never closed by the client, or a
   * `redis://` URL (or {@link ConnectOptions}) that the client opens lazily and `close()` quits.
   */
  constructor(connection: RedisConnection, { clock = systemClock }: { clock?: Clock } = {}) {
    this.conn = openConnection(connection);
    this.clock = clock;
  }

  /**
   * Enqueues one task; the task's own options first, then `opts` left to right, a later value
   * winning (Go's rule). One round trip. Throws an AsynqError: `invalid_argument` with asynq's
   * text for a bad option, or one with `errorIs(err, ErrDuplicateTask)` /
   * `errorIs(err, ErrTaskIDConflict)` when refused.
   */
  enqueue(task: TaskWithOptions, ...opts: EnqueueOptions[]): Promise<TaskInfo> {
    const { options, ...plain } = task;
    return enqueueTask(this.conn.redis, plain, Object.assign({}, options, ...opts) as EnqueueOptions, this.clock.now());
  }

  /**
   * Enqueues many plain tasks in one round trip, each validated on its own; a refused item
   * fails alone (its result holds the error). No unique or group tasks: see batchEnqueue.
   */
  enqueueBatch(items: readonly { task: NewTask; options?: EnqueueOptions }[]): Promise<BatchItemResult[]> {
    return batchEnqueue(this.conn.redis, items, this.clock.now());
  }

  /** Quits the connection if the client opened it. */
  close(): Promise<void> {
    return closeConnection(this.conn);
  }
}
