/**
 * Request bodies of the mutation routes.
 */
import { z } from 'zod';
import { batchItemQueueName, bytesEncoding } from './common';
import { routingVerdictSchema } from './routing-verdicts';
import { BULK_ACTIONS, POST_ACTIONS, actionError } from './task-actions';
import { taskStateSchema } from './tasks';

const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 time' });

export const enqueueOptionsSchema = z
  .object({
    taskId: z.string().optional(),
    uniqueTtlSeconds: z.number().optional(),
    maxRetry: z.number().int('maxRetry must be an integer').optional(),
    timeoutSeconds: z.number().nonnegative().optional(),
    deadline: isoDate.optional(),
    processAt: isoDate.optional(),
    processInSeconds: z.number().optional(),
    retentionSeconds: z.number().nonnegative().optional(),
    group: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();

export const enqueueBodySchema = z
  .object({
    type: z.string(),
    /** Omitted or null: Go's nil payload; "" is an empty payload (a different unique key). */
    payload: z.string().nullable().optional(),
    payloadEncoding: bytesEncoding.default('utf8'),
    options: enqueueOptionsSchema.default({}),
  })
  .strict();
export type EnqueueBody = z.infer<typeof enqueueBodySchema>;

/**
 * "Delete the archived task and enqueue": the enqueue's body plus the archived task that holds
 * the new task's ID or its unique lock.
 */
export const enqueueReplacingArchivedBodySchema = enqueueBodySchema
  .extend({ archivedId: z.string().min(1, 'archivedId cannot be empty') })
  .strict();
export type EnqueueReplacingArchivedBody = z.infer<typeof enqueueReplacingArchivedBodySchema>;

export const batchEnqueueBodySchema = z
  .object({
    items: z
      .array(enqueueBodySchema.extend({ queue: batchItemQueueName.optional() }))
      .min(1, 'items must not be empty')
      .max(1000, 'at most 1000 items per request'),
  })
  .strict();
export type BatchEnqueueBody = z.infer<typeof batchEnqueueBodySchema>;

export const updatePayloadBodySchema = z
  .object({ payload: z.string(), payloadEncoding: bytesEncoding.default('utf8') })
  .strict();

/**
 * A scheduled or retry task's new process time. Its bounds (not in the past beyond a minute,
 * at most a year ahead) need the server's clock: the core checks them and a 400 names
 * `processAt`.
 */
export const rescheduleBodySchema = z.object({ processAt: isoDate }).strict();
export type RescheduleBody = z.infer<typeof rescheduleBodySchema>;

/** A task's `/:action` path segment (see task-actions.ts for the list). */
export const taskActionSchema = z.enum(POST_ACTIONS, { error: actionError(POST_ACTIONS) });
/** The actions that take many tasks at once: a queue's bulk request, a search's act request. */
export const bulkActionSchema = z.enum(BULK_ACTIONS, { error: actionError(BULK_ACTIONS) });

export const bulkBodySchema = z
  .object({
    action: bulkActionSchema,
    state: taskStateSchema,
    ids: z.array(z.string()).max(100_000, 'at most 100000 ids per request').optional(),
    group: z.string().optional(),
  })
  .strict();
export type BulkBody = z.infer<typeof bulkBodySchema>;

export const bulkResultSchema = z.object({
  succeeded: z.number(),
  failed: z.array(z.object({ id: z.string(), error: z.object({ code: z.string(), message: z.string() }) })),
  trimmed: z.number(),
  stopped: z.boolean(),
});
export type BulkResultDto = z.infer<typeof bulkResultSchema>;

/** One `{"progress":…}` line of a streamed bulk action: tasks handled of the total. */
export const bulkProgressSchema = z.object({ done: z.number(), total: z.number() });
export type BulkProgressDto = z.infer<typeof bulkProgressSchema>;

export const deleteQueueQuery = z.object({
  force: z.enum(['true', 'false', '1', '0'], { error: 'force must be true or false' }).optional().transform((v) => v === 'true' || v === '1'),
});

export const batchEnqueueResultSchema = z.object({
  results: z.array(
    z.union([
      z.object({ ok: z.literal(true), id: z.string(), queue: z.string(), state: z.string() }),
      z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }).catchall(z.unknown()) }),
    ]),
  ),
});

/** What an enqueue would run into (read-only): the lock it would take, the task ID, and who would handle it. */
export const enqueueCheckBodySchema = z
  .object({
    type: z.string(),
    payload: z.string().nullable().optional(),
    payloadEncoding: bytesEncoding.default('utf8'),
    taskId: z.string().optional(),
    unique: z.boolean().default(false),
  })
  .strict();

export const enqueueCheckSchema = z.object({
  uniqueKey: z.string().nullable(),
  lock: z
    .object({ held: z.boolean(), holderId: z.string().nullable(), holderState: z.string().nullable(), ttlSeconds: z.number().nullable() })
    .nullable(),
  taskId: z.object({ id: z.string(), taken: z.boolean(), state: z.string().nullable() }).nullable(),
  /**
   * The fleet's routing verdict of (queue, type), the one every surface shows: a `not_handled`
   * or `conflict` here warns that no live or declared handler on the queue takes the type.
   * Null for a blank type.
   */
  routing: routingVerdictSchema.nullable(),
});
export type EnqueueCheckDto = z.infer<typeof enqueueCheckSchema>;
