/**
 * The public surface of the asynqlens queue core, published as `@asynqlens/asynq`: plain Node
 * TypeScript speaking asynq's Redis protocol, with no web framework in it. First asynq's own
 * API under its Go names (Client, Server, ServeMux, Scheduler, Inspector, the option functions
 * and sentinel errors), then the lower-level pieces the console builds on.
 */
export { Client, type TaskWithOptions } from './client/client';
export { Queue, TaskID, MaxRetry, Timeout, Deadline, Unique, ProcessAt, ProcessIn, Retention, Group } from './client/option-funcs';
export { Inspector } from './inspector/inspector';
export { ErrDuplicateTask, ErrTaskIDConflict } from './errors';
export type { RedisConnection } from './connect-arg';
export type { RedisClient } from './redis-client';
export { createInspector, type InspectorFacade } from './inspector';
export { createRedis, type ConnectOptions } from './redis';
export { AsynqError, isAsynqError, invalidArgument, goQuote, type ErrorCode, type ErrorKind } from './errors';
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
export { getQueueLock, listQueueLocks, listAllLocks, type LockInfo, type LockPage, type LockPageOptions } from './diagnostics/locks';
export { releaseLock, type ReleaseOutcome } from './diagnostics/release-lock';
export type { LockFinding, LockFindingCode, LockHolder } from './diagnostics/lock-findings';
export { createDuplicateScan, DEFAULT_DUPLICATE_STATES, type DuplicateScan, type DuplicateReport, type DuplicateScanOptions } from './diagnostics/duplicates';
export type { DuplicateGroup } from './diagnostics/duplicate-groups';
export { deleteTasksById, type DeleteTasksResult } from './diagnostics/delete-tasks';
export { searchTasks, actOnMatches, withSearchQuery, parseSearchQuery, type SearchFilter, type SearchOptions, type SearchPage, type ActResult, type ActProgress } from './search';
export {
  Server,
  ServeMux,
  HandlerNotFoundError,
  ErrHandlerNotFound,
  isHandlerNotFound,
  newTask,
  notFound,
  SkipRetry,
  RevokeTask,
  ErrLeaseExpired,
  DeadlineExceededError,
  CanceledError,
  errorIs,
  defaultRetryDelay,
} from './worker';
export type { ServerConfig, Handler, HandlerFunc, HandlerObject, Middleware, Task, TaskContext, ResultWriter, GroupAggregator, Logger, RetryDelayFunc } from './worker';
export { Scheduler, type SchedulerOptions } from './worker/scheduler/scheduler';
export { precheckEnqueue, type EnqueuePrecheck } from './client/precheck';
export { enqueueReplacingArchived } from './client/enqueue-replacing-archived';
export { uniqueTtlFromLock } from './client/unique-ttl';
export { createFailureScan, type FailureScan, type FailureScanOptions, type FailureScanProgress, type FailureScanPhase } from './triage/failure-scan';
export { SAMPLE_IDS, MAX_GROUPS, type FailureGroup, type NotFoundGroup, type FailedState } from './triage/failure-groups';
export { createTypeCensus, MAX_TYPES, type TypeCensus, type TypeCensusOptions, type TypeCensusReport, type TypeCount } from './triage/type-census';
export { explainRoutes, buildMux, type Route, type RouteMatch } from './triage/routing';
export { rerunNotFound, countNotFound, assertRerunTarget, type RerunOptions, type RerunProgress, type RerunResult } from './triage/rerun';
export { serversListeningOn } from './triage/listeners';
export { routingVerdicts, verdictOf, indexFleet, type RoutingVerdict, type Verdict, type Evidence, type EvidenceKind, type FleetIndex } from './triage/verdict';
export { consumes, routeOf, type FleetEvidence, type FleetServer, type NotFoundSpan, type TypeSeen, type WorkerGroup } from './triage/fleet';
export { PUBLISHED_PATTERNS_FIELD } from './published-patterns';
export { errorSignature } from './triage/signature';
export { isHandlerNotFoundError, handlerNotFoundMessage, notFoundExplanation } from './triage/not-found';
