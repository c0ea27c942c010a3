import 'server-only';
import { ZodError } from 'zod';
import { isAsynqError } from '@asynqlens/asynq';
import { brandErrorClass } from '@asynqlens/asynq/error-brand';
import { ASYNQ_TEXT } from '@/lib/contract/common';
import { ApiError } from '@/lib/contract/error-envelope';
import { env } from '../config/env';
import { redisAddress } from '../redis/target';
import { lastConnectionError } from '../redis/client';
import { classifyRedisFailure, describeFailure } from '../redis/failure';
import { noteRedisFailure, RedisStalledError } from '../redis/stall';

/** An error a service throws that already knows its HTTP status and wire code. */
export class HttpError extends ApiError {
  override readonly name: string = 'HttpError';
}
brandErrorClass(HttpError, 'HttpError');

const STATUS: Record<string, number> = {
  NOT_FOUND: 404,
  FAILED_PRECONDITION: 409,
  ALREADY_EXISTS: 409,
  INVALID_ARGUMENT: 400,
  UNAVAILABLE: 503,
};

const fail = (status: number, code: string, message: string, details: Record<string, unknown> = {}) => new ApiError(status, code, message, details);

export interface ErrorContext {
  /** The request changes data: a failure after a command was sent leaves the outcome unknown. */
  mutates?: boolean | undefined;
}

const NOTHING_CHANGED = ' Nothing was changed.';

/**
 * The 503 for a Redis that is down or stalled, naming its address. For a change whose command
 * may have reached Redis before the failure, the outcome is unknown and said so: a blind retry
 * could apply it twice (an enqueue without an ID would make two tasks).
 */
function redisUnavailable(err: unknown, { mutates }: ErrorContext): ApiError | null {
  const timeoutMs = env().ASYNQLENS_COMMAND_TIMEOUT_MS;
  if (err instanceof RedisStalledError) {
    const since = Math.max(1, Math.round(err.sinceMs / 1000));
    const message = `Redis at ${redisAddress()} is stalled: not answering within ${timeoutMs} ms (for ${since} s); one probe is waiting for it.`;
    return fail(503, 'redis_unavailable', mutates ? message + NOTHING_CHANGED : message, { reason: 'stalled' });
  }
  const kind = classifyRedisFailure(err);
  if (!kind || !(err instanceof Error)) return null;
  noteRedisFailure(err);
  const what = `Redis at ${redisAddress()} is ${describeFailure(kind, err, timeoutMs, lastConnectionError())}.`;
  const reason = kind === 'timeout' ? 'stalled' : kind === 'refused' ? 'refused' : 'unreachable';
  if (!mutates) return fail(503, 'redis_unavailable', what, { reason });
  if (kind === 'not_sent' || kind === 'refused') return fail(503, 'redis_unavailable', what + NOTHING_CHANGED, { reason });
  const unknown = `${what} The outcome of this change is unknown: Redis may have applied it before the connection failed. Check the current state before retrying.`;
  return fail(503, 'redis_unavailable', unknown, { reason, outcome: 'unknown' });
}

/**
 * The one mapping of any error to the API's status, code and envelope fields: a plain answer's
 * status and body, and the `{"error":…}` line of a stream that fails midway, are both this.
 */
export function toApiError(err: unknown, context: ErrorContext = {}): ApiError {
  if (err instanceof HttpError) return err;
  const unavailable = redisUnavailable(err, context);
  if (unavailable) return unavailable;
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const field = issue?.path.join('.') || 'body';
    // asynq's own refusal texts go out word for word, as a Go client would see them.
    const asynqText = issue?.code === 'custom' && issue.params?.asynqText === ASYNQ_TEXT.asynqText;
    return fail(400, 'invalid_argument', asynqText ? issue.message : `${field}: ${issue?.message ?? 'invalid'}`, { field });
  }
  if (isAsynqError(err)) {
    const status = STATUS[err.code] ?? 500;
    const code = err.kind === 'internal' ? 'internal' : err.kind;
    return fail(status, code, err.message, err.details);
  }
  const message = err instanceof Error ? err.message : String(err);
  console.error('[asynqlens] unexpected error', err);
  const dev = process.env.NODE_ENV === 'development';
  return fail(500, 'internal', dev ? message : 'internal error', dev && err instanceof Error ? { stack: err.stack } : {});
}

/** {@link toApiError} as the JSON answer. */
export function toErrorResponse(err: unknown, context: ErrorContext = {}): Response {
  const e = toApiError(err, context);
  return Response.json(e.toEnvelope(), { status: e.status });
}
