/**
 * asynq's Scheduler: enqueues tasks on cron specs (robfig/cron v3's standard syntax, as Go's
 * reads it) and registers itself the way Go's does, so Go's Inspector, asynqmon and our
 * Schedulers page list its entries — spec text, next and previous fire times — and each
 * entry's enqueue history.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../redis-client';
import { systemClock, type Clock } from '../../clock';
import { enqueueTask } from '../../client/enqueue';
import type { EnqueueOptions, NewTask } from '../../client/options';
import { AsynqError, failedPrecondition, invalidArgument } from '../../errors';
import * as k from '../../keys';
import { execPipeline } from '../../scripts';
import type { SchedulerEntry } from '../../types';
import type { Logger } from '../config';
import { errorText } from '../errors';
import { currentHost } from '../heartbeat';
import { every, type Loop } from '../loop';
import { GO_ZERO_TIME_MS, nextFireTime } from './cron-next';
import { loadLocation, parseCronSpec, type CronSchedule } from './cron-spec';
import { encodeSchedulerEnqueueEvent, encodeSchedulerEntry } from './encode';
import { optionStrings } from './option-strings';

/** asynq keeps the newest 1000 events per entry. */
const HISTORY_CAP = 1000;
/** setTimeout's longest wait; a later fire time is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Entry {
  id: string;
  spec: string;
  schedule: CronSchedule;
  task: NewTask;
  options: EnqueueOptions;
  /** The fire time the last run was scheduled for (robfig's Prev), null before the first. */
  prev: Date | null;
  /** Null before start, and when the spec has no time within five years (Go's zero time). */
  next: Date | null;
}

/** Settings of a {@link Scheduler}. */
export interface SchedulerOptions {
  clock?: Clock;
  logger?: Logger;
  /** asynq's default 10 s; records live twice as long. */
  heartbeatIntervalMs?: number;
  /**
   * The time zone specs are read in unless they carry CRON_TZ= (Go's SchedulerOpts.Location):
   * an IANA name, "Local" for this process' zone; asynq's default UTC.
   */
  location?: string;
}

type State = 'new' | 'active' | 'closed';

/** `register` entries (before or after `start()`), later `shutdown()`. */
export class Scheduler {
  /** `<host>:<pid>:<uuid>`, as asynq names schedulers. */
  readonly id = `${currentHost()}:${process.pid}:${randomUUID()}`;
  /** The zone specs without CRON_TZ are read in. */
  readonly location: string;
  private entries: Entry[] = [];
  private state: State = 'new';
  private heartbeat: Loop | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly jobs = new Set<Promise<void>>();
  private readonly clock: Clock;
  private readonly heartbeatMs: number;

  constructor(private readonly redis: RedisClient, private readonly opts: SchedulerOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.heartbeatMs = opts.heartbeatIntervalMs ?? 10_000;
    let zone: string | null;
    try {
      zone = loadLocation(opts.location ?? 'UTC');
    } catch (err) {
      throw invalidArgument('NewScheduler', 'location', (err as Error).message);
    }
    this.location = zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  }

  /**
   * Go's `Register(cronspec, task, opts...)`: adds an entry and returns its ID, the key of its
   * history. A spec Go would refuse throws an INVALID_ARGUMENT AsynqError with robfig's text.
   * While running, the entry's first fire time counts from now, as robfig's does.
   */
  register(cronspec: string, task: NewTask, options: EnqueueOptions = {}): string {
    let schedule: CronSchedule;
    try {
      schedule = parseCronSpec(cronspec);
    } catch (err) {
      throw invalidArgument('Scheduler.Register', 'cronspec', (err as Error).message);
    }
    const entry: Entry = { id: randomUUID(), spec: cronspec, schedule, task, options, prev: null, next: null };
    if (this.state === 'active') entry.next = this.nextAfter(entry, this.clock.now());
    this.entries.push(entry);
    this.arm();
    return entry.id;
  }

  /**
   * Go's `Unregister(entryID)`: the entry stops firing and leaves the next heartbeat. As in Go,
   * its enqueue history stays (until it ages out of asynq's 1000-event cap, or forever).
   */
  unregister(entryId: string): void {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.id !== entryId);
    if (this.entries.length === before) {
      throw new AsynqError('NOT_FOUND', 'scheduler_entry_not_found', 'asynq: no scheduler entry found', 'Scheduler.Unregister', { entryId });
    }
    this.arm();
  }

  /**
   * Computes every entry's next fire time and starts the timer and the heartbeat. Unlike asynq,
   * the first heartbeat is written at once rather than after one interval, so the entries show
   * up as soon as they exist.
   */
  start(): void {
    if (this.state === 'active') throw failedPrecondition('Scheduler.Start', 'asynq: the scheduler is already running');
    if (this.state === 'closed') throw failedPrecondition('Scheduler.Start', 'asynq: the scheduler has already been stopped');
    this.state = 'active';
    const now = this.clock.now();
    for (const e of this.entries) e.next = this.nextAfter(e, now);
    this.heartbeat = every(this.heartbeatMs, () => this.beat(), (err) => this.log(errorText(err)));
    this.arm();
  }

  /**
   * Stops firing, waits for enqueues in flight, then removes the scheduler's records and its
   * entries' histories, as asynq does. A scheduler that is not running is left as it is.
   */
  async shutdown(): Promise<void> {
    if (this.state !== 'active') return;
    this.state = 'closed';
    clearTimeout(this.timer);
    await this.heartbeat?.stop();
    await Promise.all(this.jobs);
    const key = k.schedulerEntriesKey(this.id);
    // One DEL per key: the entry list and each history key hash to their own cluster slots.
    await execPipeline(this.redis, (p) => {
      p.zrem(k.ALL_SCHEDULERS, key).del(key);
      for (const e of this.entries) p.del(k.schedulerHistoryKey(e.id));
    });
  }

  private log(message: string): void {
    this.opts.logger?.error(`scheduler: ${message}`);
  }

  private nextAfter(e: Entry, now: Date): Date | null {
    const next = nextFireTime(e.schedule, now, this.location);
    return next.getTime() === GO_ZERO_TIME_MS ? null : next;
  }

  /** Sleeps until the earliest fire time (one timer for all entries, as robfig's loop). */
  private arm(): void {
    clearTimeout(this.timer);
    if (this.state !== 'active') return;
    const due = Math.min(...this.entries.flatMap((e) => (e.next ? [e.next.getTime()] : [])));
    if (!Number.isFinite(due)) return;
    this.timer = setTimeout(() => this.wake(), Math.min(MAX_TIMER_MS, Math.max(0, due - this.clock.now().getTime())));
  }

  /**
   * Runs every entry whose fire time has come: prev becomes that fire time, next counts from
   * the wake-up time (so a late wake skips missed times rather than catching up, as robfig).
   * A timer that fires a little early finds nothing due and sleeps the rest.
   */
  private wake(): void {
    const now = this.clock.now();
    for (const e of this.entries) {
      if (!e.next || e.next.getTime() > now.getTime()) continue;
      e.prev = e.next;
      e.next = this.nextAfter(e, now);
      const job = this.fire(e).catch((err: unknown) => this.log(errorText(err)));
      this.jobs.add(job);
      void job.finally(() => this.jobs.delete(job));
    }
    this.arm();
  }

  /**
   * Enqueues the entry's task, then records the event at the time the enqueue returned (Go's
   * time.Now() after Client.Enqueue). Two round trips: the enqueue script, then ZREMRANGEBYRANK
   * + ZADD on the entry's history (O(log n) on a zset capped at 1000).
   */
  private async fire(e: Entry): Promise<void> {
    const info = await enqueueTask(this.redis, e.task, e.options, this.clock.now());
    const at = this.clock.now();
    const history = k.schedulerHistoryKey(e.id);
    await this.redis
      .multi()
      .zremrangebyrank(history, 0, -HISTORY_CAP)
      .zadd(history, Math.floor(at.getTime() / 1000), Buffer.from(encodeSchedulerEnqueueEvent(info.id, at)))
      .exec();
  }

  /**
   * Rewrites the entry list (DEL + LPUSH + EXPIRE, one MULTI) with a TTL of twice the interval,
   * soonest entry first as robfig's sorted snapshot lists them.
   */
  private async beat(): Promise<void> {
    const ttl = Math.max(1, Math.round((this.heartbeatMs * 2) / 1000));
    const key = k.schedulerEntriesKey(this.id);
    const soonest = (e: Entry) => e.next?.getTime() ?? Infinity;
    const records = [...this.entries].sort((a, b) => soonest(a) - soonest(b)).map((e): SchedulerEntry => ({
      id: e.id,
      spec: e.spec,
      taskType: e.task.type,
      taskPayload: e.task.payload ?? new Uint8Array(),
      enqueueOptions: optionStrings(e.options),
      nextEnqueueAt: e.next,
      prevEnqueueAt: e.prev,
    }));
    await this.redis.zadd(k.ALL_SCHEDULERS, Math.floor(this.clock.now().getTime() / 1000) + ttl, key);
    const m = this.redis.multi().del(key);
    for (const r of records) m.lpush(key, Buffer.from(encodeSchedulerEntry(r)));
    await m.expire(key, ttl).exec();
  }
}
