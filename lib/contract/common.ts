/**
 * Pieces every part of the wire contract shares. Isomorphic: no I/O, imported by route
 * handlers and by the browser's fetchers alike.
 */
import { z } from 'zod';

/** Timestamps travel as ISO-8601 UTC strings, or null where unset. */
export const isoTime = z.string().nullable();

/** Bytes travel as text when they are valid UTF-8, else as base64. */
export const bytesEncoding = z.enum(['utf8', 'base64']);
export type BytesEncoding = z.infer<typeof bytesEncoding>;

export const errorBodySchema = z.object({
  error: z
    .object({
      code: z.string(),
      message: z.string(),
    })
    .catchall(z.unknown()),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

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
