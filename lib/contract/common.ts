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

/** A task payload on the wire: its bytes as text or base64, and which of the two. */
export const payloadFields = { payload: z.string(), payloadEncoding: bytesEncoding };

/** Where a paged answer stands: its page, the page size, and how many rows there are in all. */
export const pageFields = { page: z.number(), size: z.number(), total: z.number() };

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

/**
 * Marks a refusal whose text is asynq's own: the 400 carries it word for word, where other
 * refusals read `<field>: <text>` (lib/server/http/errors.ts).
 */
export const ASYNQ_TEXT = { asynqText: true } as const;

/** A queue name from a URL segment: any string asynq accepts (non-blank). */
export const queueName = z
  .string()
  .refine((s) => s.trim().length > 0, { message: 'queue name must contain one or more characters', params: ASYNQ_TEXT });

/** The longest queue name the console writes keys under, in bytes of UTF-8. */
export const MAX_QUEUE_NAME_BYTES = 256;

/** Why a queue name is refused on a write; the text of the 400. */
export const QUEUE_NAME_RULE =
  `a queue name must not be blank, must not contain "{" or "}" (they break asynq's key layout asynq:{<queue>}:…), ` +
  `control characters or unpaired surrogates, and must be at most ${MAX_QUEUE_NAME_BYTES} bytes of UTF-8`;

// Braces, C0/DEL/C1 controls, a lone surrogate half: the core's rule (lib/asynq/queue-name.ts),
// spelled again because the contract may not import the core; a test holds the two together.
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_QUEUE_NAME = /[{}\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The layout rule of a written queue name; a blank name passes here, the blank rule is apart. */
const fitsKeyLayout = (s: string) =>
  s.trim().length === 0 || (!UNSAFE_IN_QUEUE_NAME.test(s) && new TextEncoder().encode(s).length <= MAX_QUEUE_NAME_BYTES);

/**
 * A queue name the console may create keys for (enqueue, re-run targets): stricter than
 * asynq, which only refuses blank names, because a brace in the name lets the keys of one
 * queue read as another's. Reads and deletes take {@link queueName}.
 */
export const writableQueueName = queueName.refine(fitsKeyLayout, QUEUE_NAME_RULE);

/**
 * A batch item's queue: the same layout rule refuses the whole request, but a blank name is
 * left to the core, which refuses that item alone with asynq's text, as it does a blank type.
 */
export const batchItemQueueName = z.string().refine(fitsKeyLayout, QUEUE_NAME_RULE);

/** A whole number parsed from a query string. */
export const intParam = (name: string, min: number, max?: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .min(min, `${name} must be ≥ ${min}`)
    .max(max ?? Number.MAX_SAFE_INTEGER, `${name} must be ≤ ${max}`);

/** `?page=&size=` of a paged listing: pages count from 1, `size` rows each, at most `maxSize`. */
export const pageQuery = (maxSize: number, defaultSize: number) => ({
  page: intParam('page', 1).default(1),
  size: intParam('size', 1, maxSize).default(defaultSize),
});

export const queueParams = z.object({ qname: queueName });
/** Path params of a route that creates keys for the queue (enqueue). */
export const writableQueueParams = z.object({ qname: writableQueueName });
