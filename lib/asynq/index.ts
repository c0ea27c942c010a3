/**
 * The public surface of the asynqlens queue core: plain Node TypeScript speaking asynq's
 * Redis protocol, with no web framework in it.
 */
export { createInspector, type Inspector } from './inspector';
export { createRedis, type ConnectOptions } from './redis';
export { AsynqError, isAsynqError, type ErrorCode, type ErrorKind } from './errors';
export { TASK_STATES, isTaskState, type TaskState } from './states';
export { systemClock, fixedClock, type Clock } from './clock';
export type { PageParams } from './pagination';
export type { RedisInfo } from './inspector/redis-info';
export type { GroupStat } from './inspector/groups';
export type * from './types';
export * as keys from './keys';
