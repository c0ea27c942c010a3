/**
 * asynq's Inspector under its Go names (GetQueueInfo, ListPendingTasks, RunTask,
 * CancelProcessing, ...), over the core's facade ({@link createInspector}), which holds the
 * reads and changes and documents what each costs. Everything the facade offers beyond Go's
 * Inspector (search, scans, locks) stays on `@asynqlens/asynq/inspector`.
 */
import { systemClock, type Clock } from '../clock';
import { closeConnection, openConnection, type RedisConnection } from '../connect-arg';
import * as k from '../keys';
import type { PageParams } from '../pagination';
import type { RedisClient } from '../redis-client';
import type { TaskState } from '../states';
import type { TaskInfo } from '../types';
import { createInspector } from './index';

/** Go's default page: Page(1), PageSize(30). */
const DEFAULT_PAGE: PageParams = { page: 1, size: 30 };

export class Inspector {
  private readonly conn: { redis: RedisClient; owned: boolean };
  private readonly core: ReturnType<typeof createInspector>;

  /** `connection` as for {@link Client}: a caller's ioredis connection, or a URL it opens. */
  constructor(connection: RedisConnection, { clock = systemClock }: { clock?: Clock } = {}) {
    this.conn = openConnection(connection);
    this.core = createInspector(this.conn.redis, { clock });
  }

  /** Every queue's name. */
  queues(): Promise<string[]> {
    return this.core.queueNames();
  }
  /** A queue's sizes, counters, latency and paused state (Go's QueueInfo). */
  getQueueInfo(qname: string) {
    return this.core.queue(qname);
  }
  /** Processed and failed counts of the last `days` days, newest first. */
  history(qname: string, days: number) {
    return this.core.history(qname, days);
  }
  /** A queue's groups with their sizes. */
  groups(qname: string) {
    return this.core.groups(qname);
  }
  getTaskInfo(qname: string, id: string): Promise<TaskInfo> {
    return this.core.task(qname, id);
  }

  listPendingTasks = (qname: string, page?: Partial<PageParams>) => this.list(qname, 'pending', page);
  listActiveTasks = (qname: string, page?: Partial<PageParams>) => this.list(qname, 'active', page);
  listScheduledTasks = (qname: string, page?: Partial<PageParams>) => this.list(qname, 'scheduled', page);
  listRetryTasks = (qname: string, page?: Partial<PageParams>) => this.list(qname, 'retry', page);
  listArchivedTasks = (qname: string, page?: Partial<PageParams>) => this.list(qname, 'archived', page);
  listCompletedTasks = (qname: string, page?: Partial<PageParams>) => this.list(qname, 'completed', page);
  listAggregatingTasks = (qname: string, group: string, page?: Partial<PageParams>) => this.list(qname, 'aggregating', page, group);

  /** Deletes a task in any state but active; throws `task not found` / `queue not found` as Go does. */
  deleteTask(qname: string, id: string): Promise<void> {
    return this.core.moveTask(qname, id, 'delete');
  }
  /** Moves a scheduled, retry, archived or aggregating task to pending. */
  runTask(qname: string, id: string): Promise<void> {
    return this.core.moveTask(qname, id, 'run');
  }
  /** Moves a task in any state but active to archived. */
  archiveTask(qname: string, id: string): Promise<void> {
    return this.core.moveTask(qname, id, 'archive');
  }
  /**
   * Asks whichever server runs task `id` to cancel it: one PUBLISH on asynq's cancel channel,
   * best effort and unchecked, exactly as Go's CancelProcessing.
   */
  async cancelProcessing(id: string): Promise<void> {
    await this.conn.redis.publish(k.CANCEL_CHANNEL, id);
  }

  pauseQueue(qname: string): Promise<void> {
    return this.core.pauseQueue(qname);
  }
  unpauseQueue(qname: string): Promise<void> {
    return this.core.resumeQueue(qname);
  }
  /** Removes a queue; without `force` only an empty one (Go's QueueNotEmptyError text). */
  deleteQueue(qname: string, force = false): Promise<void> {
    return this.core.deleteQueue(qname, force);
  }

  /** Every live server with its active workers. */
  servers() {
    return this.core.servers();
  }
  /** Every scheduler's registered entries. */
  schedulerEntries() {
    return this.core.schedulerEntries();
  }
  /** An entry's enqueue events, newest first. */
  listSchedulerEnqueueEvents(entryId: string, page?: Partial<PageParams>) {
    return this.core.schedulerEvents(entryId, { ...DEFAULT_PAGE, ...page });
  }

  /** Quits the connection if the inspector opened it. */
  close(): Promise<void> {
    return closeConnection(this.conn);
  }

  private async list(qname: string, state: TaskState, page: Partial<PageParams> = {}, group?: string): Promise<TaskInfo[]> {
    return (await this.core.tasks(qname, state, { ...DEFAULT_PAGE, ...page, group })).tasks;
  }
}
