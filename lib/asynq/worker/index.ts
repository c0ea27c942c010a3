/**
 * The worker side of the core: route task types to handlers and process asynq tasks with
 * asynq's semantics, side by side with Go servers on the same queues.
 */
export { ServeMux, HandlerNotFoundError, ErrHandlerNotFound, isHandlerNotFound, notFound, notFoundHandler, HANDLER_NOT_FOUND } from './serve-mux';
export type { Handler, HandlerFunc, HandlerObject, Middleware } from './serve-mux';
export type { Task, TaskContext, ResultWriter } from './task';
export { newTask } from './task';
export { SkipRetry, RevokeTask, ErrLeaseExpired, DeadlineExceededError, CanceledError, errorIs } from './errors';
export { Server } from './server';
export type { ServerConfig, GroupAggregator, Logger } from './config';
export { defaultRetryDelay, type RetryDelayFunc } from './retry-delay';
export { computeDeadline } from './deadline';
