import 'server-only';
import { ZodError } from 'zod';
import { isAsynqError } from '@/lib/asynq';
import { redisAddress } from './env';

/** An error that already knows its HTTP status and wire code. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const STATUS: Record<string, number> = {
  NOT_FOUND: 404,
  FAILED_PRECONDITION: 409,
  ALREADY_EXISTS: 409,
  INVALID_ARGUMENT: 400,
  UNAVAILABLE: 503,
};

/** ioredis reports a lost or unreachable server in these words (and Node in these codes). */
const UNAVAILABLE = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection is closed|max retries per request|Command timed out|Stream isn't writeable|connect ETIMEDOUT/i;

function json(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
  return Response.json({ error: { code, message, ...details } }, { status });
}

/** Maps any error to the API's single error envelope. */
export function toErrorResponse(err: unknown): Response {
  if (err instanceof HttpError) return json(err.status, err.code, err.message, err.details);
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const field = issue?.path.join('.') || 'body';
    return json(400, 'invalid_argument', `${field}: ${issue?.message ?? 'invalid'}`, { field });
  }
  if (isAsynqError(err)) {
    const status = STATUS[err.code] ?? 500;
    const code = err.kind === 'internal' ? 'internal' : err.kind;
    return json(status, code, err.message, err.details);
  }
  const message = err instanceof Error ? err.message : String(err);
  if (UNAVAILABLE.test(message)) {
    return json(503, 'redis_unavailable', `Redis at ${redisAddress()} is unreachable: ${message}`);
  }
  console.error('[asynqlens] unexpected error', err);
  const dev = process.env.NODE_ENV === 'development';
  return json(500, 'internal', dev ? message : 'internal error', dev && err instanceof Error ? { stack: err.stack } : {});
}
