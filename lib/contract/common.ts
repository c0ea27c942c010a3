/**
 * Pieces every part of the wire contract shares. Isomorphic: no I/O, imported by route
 * handlers and by the browser's fetchers alike.
 */
import { z } from 'zod';
import type { ErrorEnvelope } from './error-envelope';

/** Timestamps travel as ISO-8601 UTC strings, or null where unset. */
export const isoTime = z.string().nullable();

/** Bytes travel as text when they are valid UTF-8, else as base64. */
export const bytesEncoding = z.enum(['utf8', 'base64']);
export type BytesEncoding = z.infer<typeof bytesEncoding>;

/** The error envelope (error-envelope.ts), as a schema for the tests and development checks. */
export const errorBodySchema: z.ZodType<ErrorEnvelope> = z.object({
  error: z
    .object({
      code: z.string(),
      message: z.string(),
    })
    .catchall(z.unknown()),
});

/**
 * One line of a streamed (NDJSON) answer, sent when the client accepts `application/x-ndjson`:
 * `{"progress":…}` lines, then exactly one `{"result":…}` (the plain answer's body) or
 * `{"error":…}` (the error envelope a plain answer would carry, same code and fields).
 */
export const streamLineSchema = <P extends z.ZodType, R extends z.ZodType>(progress: P, result: R) =>
  z.union([z.object({ progress }), z.object({ result }), errorBodySchema]);

/** A queue name from a URL segment: any string asynq accepts (non-blank). */
export const queueName = z
  .string()
  .refine((s) => s.trim().length > 0, 'queue name must contain one or more characters');

/** A whole number parsed from a query string. */
export const intParam = (name: string, min: number, max?: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .min(min, `${name} must be ≥ ${min}`)
    .max(max ?? Number.MAX_SAFE_INTEGER, `${name} must be ≤ ${max}`);

export const queueParams = z.object({ qname: queueName });
