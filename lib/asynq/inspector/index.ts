/**
 * The queue core as one object over one Redis connection and one clock, so callers never pass
 * the connection or the time around: reads, changes, scans and searches alike. Each method's
 * cost is documented where it is implemented.
 */
import type { RedisClient } from '../redis-client';
import { systemClock, type Clock } from '../clock';
import type { PageParams } from '../pagination';
import type { TaskState } from '../states';
import { batchEnqueue } from '../client/batch-enqueue';
import { enqueueTask } from '../client/enqueue';
import { enqueueReplacingArchived } from '../client/enqueue-replacing-archived';
import type { EnqueueOptions, NewTask } from '../client/options';
import { precheckEnqueue } from '../client/precheck';
import { deleteTasksById } from '../diagnostics/delete-tasks';
import { createDuplicateScan, type DuplicateScanOptions } from '../diagnostics/duplicates';
import { getQueueLock, listAllLocks, listQueueLocks, type LockPageOptions } from '../diagnostics/locks';
import { releaseLock } from '../diagnostics/release-lock';
import { bulkAll, bulkByIds, type BulkOptions } from '../mutations/bulk';
import type { MoveAction } from '../mutations/move-codes';
import { deleteQueue, pauseQueue, resumeQueue } from '../mutations/queue-actions';
import { cancelTask, moveTask, updateTaskPayload } from '../mutations/task-actions';
import { rescheduleTask } from '../mutations/reschedule';
import { actOnMatches, searchTasks, type ActOptions, type SearchFilter, type SearchOptions } from '../search';
import { createFailureScan, type FailureScanOptions } from '../triage/failure-scan';
import type { FailedState } from '../triage/failure-groups';
import { assertRerunTarget, countNotFound, rerunNotFound, type RerunOptions } from '../triage/rerun';
import { createTypeCensus, type TypeCensusOptions } from '../triage/type-census';
import { forecastArchive } from './archive-forecast';
import { listGroups } from './groups';
import { assertQueueExists, getQueueHistory, getQueueStats, listQueueNames, listQueueStats } from './queues';
import { getRedisInfo } from './redis-info';
import { listSchedulerEntries, listSchedulerEvents } from './schedulers';
import { listServers } from './servers';
import { getTask, getTaskPayload, listTasks, type ListOptions } from './tasks';

export interface InspectorOptions {
  clock?: Clock;
  /**
   * The time zone of the asynq servers, in which an archive counts its 90 days (asynq counts
   * them in its process' local zone): an IANA name; UTC by default.
   */
  archiveTimeZone?: string;
}

export function createInspector(redis: RedisClient, { clock = systemClock, archiveTimeZone }: InspectorOptions = {}) {
  const now = () => clock.now();
  return {
    redis,
    // Queues, tasks and the processes around them.
    queueNames: () => listQueueNames(redis),
    queues: () => listQueueStats(redis, now()),
    queue: (qname: string) => getQueueStats(redis, qname, now()),
    history: (qname: string, days: number) => getQueueHistory(redis, qname, days, now()),
    groups: async (qname: string) => {
      await assertQueueExists(redis, 'listGroups', qname);
      return listGroups(redis, qname);
    },
    tasks: (qname: string, state: TaskState, opts: ListOptions) => listTasks(redis, qname, state, opts, now()),
    task: (qname: string, id: string) => getTask(redis, qname, id, now()),
    taskPayload: (qname: string, id: string) => getTaskPayload(redis, qname, id, now()),
    servers: () => listServers(redis, now()),
    schedulerEntries: () => listSchedulerEntries(redis, now()),
    schedulerEvents: (entryId: string, page: PageParams) => listSchedulerEvents(redis, entryId, page),
    redisInfo: () => getRedisInfo(redis),
    archiveForecast: (qname: string, adding: number) => forecastArchive(redis, qname, adding, now(), archiveTimeZone),

    // Enqueueing, as asynq's Client does.
    enqueue: (task: NewTask, opts: EnqueueOptions) => enqueueTask(redis, task, opts, now()),
    enqueueBatch: (items: readonly { task: NewTask; options?: EnqueueOptions }[]) => batchEnqueue(redis, items, now()),
    enqueueReplacingArchived: (archivedId: string, task: NewTask, opts: EnqueueOptions) =>
      enqueueReplacingArchived(redis, archivedId, task, opts, now()),
    precheckEnqueue: (input: Parameters<typeof precheckEnqueue>[1]) => precheckEnqueue(redis, input),

    // Changes to one task or queue.
    moveTask: (qname: string, id: string, action: MoveAction) => moveTask(redis, qname, id, action, now(), archiveTimeZone),
    cancelTask: (qname: string, id: string) => cancelTask(redis, qname, id),
    updateTaskPayload: (qname: string, id: string, payload: Uint8Array) => updateTaskPayload(redis, qname, id, payload),
    rescheduleTask: (qname: string, id: string, processAt: Date) => rescheduleTask(redis, qname, id, processAt, now()),
    pauseQueue: (qname: string) => pauseQueue(redis, qname, now()),
    resumeQueue: (qname: string) => resumeQueue(redis, qname),
    deleteQueue: (qname: string, force: boolean) => deleteQueue(redis, qname, force),

    // Many tasks at once, in batches.
    bulkByIds: (qname: string, action: MoveAction, state: string, ids: readonly string[], opts: Omit<BulkOptions, 'now' | 'timeZone'> = {}) =>
      bulkByIds(redis, qname, action, state, ids, { ...opts, now, timeZone: archiveTimeZone }),
    bulkAll: (qname: string, action: MoveAction, state: string, opts: Omit<BulkOptions, 'now' | 'timeZone'> = {}) =>
      bulkAll(redis, qname, action, state, { ...opts, now, timeZone: archiveTimeZone }),
    deleteTasks: (qname: string, ids: readonly string[]) => deleteTasksById(redis, qname, ids),

    // Search, and acting on what it matches.
    search: (filter: SearchFilter, opts: Omit<SearchOptions, 'now'> = {}) => searchTasks(redis, filter, { ...opts, now: now() }),
    actOnMatches: (filter: SearchFilter, action: MoveAction, preview: boolean, opts: Omit<ActOptions, 'now' | 'timeZone'> = {}) =>
      actOnMatches(redis, filter, action, preview, { ...opts, now, timeZone: archiveTimeZone }),

    // Unique-task locks.
    queueLock: (qname: string, key: string) => getQueueLock(redis, qname, key, now()),
    queueLocks: (qname: string, opts: Omit<LockPageOptions, 'now'> = {}) => listQueueLocks(redis, qname, { ...opts, now: now() }),
    allLocks: (opts: Omit<LockPageOptions, 'now'> = {}) => listAllLocks(redis, { ...opts, now: now() }),
    releaseLock: (qname: string, key: string, expectedHolder?: string) => releaseLock(redis, qname, key, expectedHolder),

    // Long scans (each started here and read while it runs) and failure triage.
    duplicateScan: (qname: string, opts?: DuplicateScanOptions) => createDuplicateScan(redis, qname, opts),
    failureScan: (opts?: FailureScanOptions) => createFailureScan(redis, opts),
    typeCensus: (opts?: TypeCensusOptions) => createTypeCensus(redis, opts),
    assertRerunTarget: (qname: string) => assertRerunTarget(redis, qname),
    countNotFound: (qname: string, taskType: string, states: readonly FailedState[], opts?: Pick<RerunOptions, 'signal'>) =>
      countNotFound(redis, qname, taskType, states, opts),
    rerunNotFound: (qname: string, taskType: string, states: readonly FailedState[], opts?: RerunOptions) =>
      rerunNotFound(redis, qname, taskType, states, opts),
  };
}

/** The facade's type; `Inspector` (inspector.ts) is the Go-named class over it. */
export type InspectorFacade = ReturnType<typeof createInspector>;
