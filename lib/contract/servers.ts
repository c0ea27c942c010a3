/**
 * Servers, workers, scheduler entries and their events, and Redis INFO.
 */
import { z } from 'zod';
import { isoTime, pageQuery, payloadFields } from './common';

export const workerSchema = z.object({
  taskId: z.string(),
  taskType: z.string(),
  queue: z.string(),
  /** The task's payload as the worker recorded it, cut like a task list's preview. */
  ...payloadFields,
  payloadSize: z.number(),
  payloadTruncated: z.boolean(),
  startedAt: isoTime,
  deadline: isoTime,
});

export const serverSchema = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number(),
  concurrency: z.number(),
  queues: z.record(z.string(), z.number()),
  strictPriority: z.boolean(),
  status: z.string(),
  startedAt: isoTime,
  activeWorkerCount: z.number(),
  workers: z.array(workerSchema),
});
export const serverListSchema = z.object({ servers: z.array(serverSchema) });
export type ServerListDto = z.infer<typeof serverListSchema>;

export const schedulerEntrySchema = z.object({
  id: z.string(),
  schedulerId: z.string(),
  spec: z.string(),
  taskType: z.string(),
  ...payloadFields,
  options: z.array(z.string()),
  nextEnqueueAt: isoTime,
  prevEnqueueAt: isoTime,
});
export const schedulerListSchema = z.object({ entries: z.array(schedulerEntrySchema) });
export type SchedulerListDto = z.infer<typeof schedulerListSchema>;

export const schedulerEventsParams = z.object({ entryId: z.string().min(1) });
export const schedulerEventsQuery = z.object(pageQuery(100, 20));
export const schedulerEventsSchema = z.object({
  events: z.array(z.object({ taskId: z.string(), enqueuedAt: isoTime })),
  total: z.number(),
});
export type SchedulerEventsDto = z.infer<typeof schedulerEventsSchema>;

export const redisInfoSchema = z.object({
  info: z.record(z.string(), z.record(z.string(), z.string())),
});
export type RedisInfoDto = z.infer<typeof redisInfoSchema>;

export const healthSchema = z.object({
  redis: z.literal('ok'),
  redisVersion: z.string(),
  version: z.string(),
  readOnly: z.boolean(),
});
export type HealthDto = z.infer<typeof healthSchema>;
