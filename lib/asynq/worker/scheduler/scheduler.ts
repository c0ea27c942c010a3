/**
 * A periodic enqueuer that registers itself the way asynq's Scheduler does, so Go's Inspector,
 * asynqmon and our Schedulers page list its entries and each entry's enqueue history. It runs
 * fixed intervals (`@every <duration>` specs), not cron expressions.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../redis-client';
import { systemClock, type Clock } from '../../clock';
import { enqueueTask } from '../../client/enqueue';
import type { EnqueueOptions, NewTask } from '../../client/options';
import * as k from '../../keys';
import { execPipeline } from '../../scripts';
import type { SchedulerEntry } from '../../types';
import type { Logger } from '../config';
import { errorText } from '../errors';
import { currentHost } from '../heartbeat';
import { every, type Loop } from '../loop';
import { encodeSchedulerEnqueueEvent, encodeSchedulerEntry } from './encode';
import { goDuration, optionStrings } from './option-strings';

/** asynq keeps the newest 1000 events per entry. */
const HISTORY_CAP = 1000;

/** One periodic entry: what to enqueue and how often. */
export interface PeriodicTask {
  /** Whole seconds between enqueues; the spec shown is `@every <Go duration>`. */
  everySeconds: number;
  task: NewTask;
  options?: EnqueueOptions;
}

interface Entry extends PeriodicTask {
  id: string;
  prev: Date | null;
  next: Date;
}

/** Settings of a {@link Scheduler}. */
export interface SchedulerOptions {
  clock?: Clock;
  logger?: Logger;
  /** asynq's default 10 s; records live twice as long. */
  heartbeatIntervalMs?: number;
}

/** `register` entries, `start()`, later `shutdown()`. */
export class Scheduler {
  /** `<host>:<pid>:<uuid>`, as asynq names schedulers. */
  readonly id = `${currentHost()}:${process.pid}:${randomUUID()}`;
  private readonly entries: Entry[] = [];
  private loops: Loop[] = [];
  private readonly clock: Clock;
  private readonly heartbeatMs: number;

  constructor(private readonly redis: RedisClient, private readonly opts: SchedulerOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.heartbeatMs = opts.heartbeatIntervalMs ?? 10_000;
  }

  /** Adds an entry (before start); returns its ID, the key of its history. */
  register(p: PeriodicTask): string {
    const id = randomUUID();
    this.entries.push({ ...p, id, prev: null, next: new Date(this.clock.now().getTime() + p.everySeconds * 1000) });
    return id;
  }

  /**
   * Starts every entry's timer and the heartbeat. Unlike asynq, the first heartbeat is written
   * at once rather than after one interval, so the entries show up as soon as they exist.
   */
  start(): void {
    const log = (m: string) => this.opts.logger?.error(`scheduler: ${m}`);
    this.loops.push(every(this.heartbeatMs, () => this.beat(), (err) => log(errorText(err))));
    for (const e of this.entries) this.loops.push(every(e.everySeconds * 1000, () => this.fire(e), (err) => log(errorText(err)), false));
  }

  /** Stops, then removes the scheduler's records and its entries' histories, as asynq does. */
  async shutdown(): Promise<void> {
    await Promise.all(this.loops.map((l) => l.stop()));
    this.loops = [];
    const key = k.schedulerEntriesKey(this.id);
    // One DEL per key: the entry list and each history key hash to their own cluster slots.
    await execPipeline(this.redis, (p) => {
      p.zrem(k.ALL_SCHEDULERS, key).del(key);
      for (const e of this.entries) p.del(k.schedulerHistoryKey(e.id));
    });
  }

  /** Enqueues the entry's task and records the event. Two round trips (enqueue, history). */
  private async fire(e: Entry): Promise<void> {
    const now = this.clock.now();
    e.prev = now;
    e.next = new Date(now.getTime() + e.everySeconds * 1000);
    const info = await enqueueTask(this.redis, e.task, e.options ?? {}, now);
    const history = k.schedulerHistoryKey(e.id);
    await this.redis
      .multi()
      .zremrangebyrank(history, 0, -HISTORY_CAP)
      .zadd(history, Math.floor(now.getTime() / 1000), Buffer.from(encodeSchedulerEnqueueEvent(info.id, now)))
      .exec();
  }

  /** Rewrites the entry list with a TTL of twice the interval. Two round trips. */
  private async beat(): Promise<void> {
    const ttl = Math.max(1, Math.round((this.heartbeatMs * 2) / 1000));
    const key = k.schedulerEntriesKey(this.id);
    const records = this.entries.map((e): SchedulerEntry => ({
      id: e.id,
      spec: `@every ${goDuration(e.everySeconds)}`,
      taskType: e.task.type,
      taskPayload: e.task.payload ?? new Uint8Array(),
      enqueueOptions: optionStrings(e.options ?? {}),
      nextEnqueueAt: e.next,
      prevEnqueueAt: e.prev,
    }));
    await this.redis.zadd(k.ALL_SCHEDULERS, Math.floor(this.clock.now().getTime() / 1000) + ttl, key);
    const m = this.redis.multi().del(key);
    for (const r of records) m.lpush(key, Buffer.from(encodeSchedulerEntry(r)));
    await m.expire(key, ttl).exec();
  }
}
