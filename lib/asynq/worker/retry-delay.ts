/**
 * How long a failed task waits before its next attempt.
 */
import type { Task } from './task';

/** Seconds to wait; `retried` counts the attempts that failed before this one. */
export type RetryDelayFunc = (retried: number, err: unknown, task: Task) => number;

/**
 * asynq's default (Sidekiq's formula): n⁴ + 15 + rand[0,30) × (n + 1) whole seconds, n being
 * the retry count before this failure, so the first retry comes 15–44 s later and the 25th
 * about 4.5 days later.
 */
export const defaultRetryDelay: RetryDelayFunc = (n) => n ** 4 + 15 + Math.floor(Math.random() * 30) * (n + 1);
