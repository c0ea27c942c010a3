/**
 * The public surface of the asynqlens queue core: plain Node TypeScript speaking asynq's
 * Redis protocol, with no web framework in it.
 */
export { createInspector, type Inspector } from './inspector';
export { createRedis, type ConnectOptions } from './redis';
export { AsynqError, isAsynqError, invalidArgument, type ErrorCode, type ErrorKind } from './errors';
export { TASK_STATES, isTaskState, type TaskState } from './states';
export { systemClock, fixedClock, type Clock } from './clock';
export type { PageParams } from './pagination';
export type { RedisInfo } from './inspector/redis-info';
export type { GroupStat } from './inspector/groups';
export type * from './types';
export * as keys from './keys';
export { enqueueTask } from './client/enqueue';
export { batchEnqueue, type BatchItemResult } from './client/batch-enqueue';
export type { NewTask, EnqueueOptions } from './client/options';
export { moveTask, cancelTask, updateTaskPayload } from './mutations/task-actions';
export { bulkByIds, bulkAll, MAX_BATCH, type BulkOptions, type BulkResult } from './mutations/bulk';
export { pauseQueue, resumeQueue, deleteQueue } from './mutations/queue-actions';
export type { MoveAction } from './mutations/move-codes';
