import 'server-only';
import type { QueueStats, SchedulerEntryInfo, ServerWithWorkers, TaskInfo } from '@asynqlens/asynq';
import { isHandlerNotFoundError, uniqueTtlFromLock } from '@asynqlens/asynq';
import type { BytesEncoding } from '@/lib/contract/common';
import type { QueueStatsDto } from '@/lib/contract/queues';
import type { TaskDto } from '@/lib/contract/tasks';
import { iso, isoMs, isoSec } from './time';
import type { ServerListDto, SchedulerListDto } from '@/lib/contract/servers';

/** List rows carry at most 4 KiB of payload; a task's detail at most 1 MiB. */
export const LIST_PAYLOAD_LIMIT = 4 * 1024;
export const DETAIL_PAYLOAD_LIMIT = 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes as text when they are valid UTF-8, else base64. Cut at `limit` bytes first; a cut
 * inside a multi-byte character is moved back to the character's start, so text stays text.
 */
export function encodeBytes(bytes: Uint8Array, limit = Infinity): { text: string; encoding: BytesEncoding; truncated: boolean } {
  let end = Math.min(bytes.length, limit);
  const truncated = end < bytes.length;
  try {
    return { text: utf8.decode(bytes.subarray(0, end)), encoding: 'utf8', truncated };
  } catch {
    if (truncated) {
      // Back up over at most 3 continuation bytes to a character boundary.
      for (let i = 0; i < 3 && end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80; i++) end--;
      try {
        return { text: utf8.decode(bytes.subarray(0, end)), encoding: 'utf8', truncated };
      } catch {
        // not text after all
      }
    }
    return { text: Buffer.from(bytes.subarray(0, Math.min(bytes.length, limit))).toString('base64'), encoding: 'base64', truncated };
  }
}


/**
 * asynq's pending_since (Unix nanoseconds, past 2^53) → ISO time with milliseconds. Whole
 * milliseconds are the digits before the last six (what dividing by 10^6 keeps), read as a
 * number: no BigInt, once per pending row.
 */
function nsToIso(ns: string | null): string | null {
  if (ns === null || !/^\d+$/.test(ns) || ns === '0') return null;
  return isoMs(ns.length > 6 ? Number(ns.slice(0, -6)) : 0);
}

/** The last read's time as text: one stats read stamps every queue with the same Date. */
let stamped: { at: Date; text: string } | null = null;

/**
 * A queue's stats for the API. Field by field, in the order the answer has always had: at
 * 25,000 queues a rest-and-spread copy and a toISOString per queue cost a quarter second.
 */
export function toQueueStatsDto(s: QueueStats): QueueStatsDto {
  if (stamped?.at !== s.timestamp) stamped = { at: s.timestamp, text: s.timestamp.toISOString() };
  return {
    queue: s.queue,
    paused: s.paused,
    size: s.size,
    pending: s.pending,
    active: s.active,
    scheduled: s.scheduled,
    retry: s.retry,
    archived: s.archived,
    completed: s.completed,
    aggregating: s.aggregating,
    aggregatingExact: s.aggregatingExact,
    groups: s.groups,
    processed: s.processed,
    failed: s.failed,
    processedTotal: s.processedTotal,
    failedTotal: s.failedTotal,
    memoryUsageBytes: s.memoryUsageBytes,
    problem: s.problem,
    unreadable: s.unreadable,
    pausedSince: iso(s.pausedSince),
    latencySeconds: s.latencyMs / 1000,
    timestamp: stamped.text,
  };
}

export function toTaskDto(t: TaskInfo, payloadLimit: number): TaskDto {
  const m = t.message;
  const payload = encodeBytes(m?.payload ?? new Uint8Array(), payloadLimit);
  const result = t.result ? encodeBytes(t.result) : null;
  return {
    id: t.id,
    queue: t.queue,
    type: m?.type ?? '',
    payload: payload.text,
    payloadEncoding: payload.encoding,
    payloadSize: m?.payload.length ?? 0,
    payloadTruncated: payload.truncated,
    headers: m?.headers ?? {},
    state: t.state,
    maxRetry: m?.retry ?? 0,
    retried: m?.retried ?? 0,
    lastError: m?.errorMsg ?? '',
    handlerNotFound: m ? isHandlerNotFoundError(m.errorMsg, m.type) : false,
    lastFailedAt: isoSec(m?.lastFailedAt ?? 0),
    timeoutSeconds: m?.timeout ?? 0,
    deadline: isoSec(m?.deadline ?? 0),
    group: m?.groupKey || null,
    nextProcessAt: iso(t.nextProcessAt),
    pendingSince: nsToIso(t.pendingSince),
    completedAt: isoSec(m?.completedAt ?? 0),
    retentionSeconds: m?.retention ?? 0,
    expiresAt: t.state === 'completed' && m && m.completedAt > 0 ? isoSec(m.completedAt + m.retention) : null,
    result: result?.text ?? null,
    resultEncoding: result?.encoding ?? null,
    isOrphaned: t.isOrphaned,
    uniqueKey: m?.uniqueKey || null,
    uniqueLock: t.uniqueLock,
    // The lock's TTL was read a moment ago; the clock here stands for that moment.
    uniqueTtlSeconds: uniqueTtlFromLock(t, new Date()),
    problem: t.problem,
  };
}

export function toServerListDto(servers: ServerWithWorkers[]): ServerListDto {
  return {
    servers: servers.map((s) => ({
      id: s.serverId,
      host: s.host,
      pid: s.pid,
      concurrency: s.concurrency,
      queues: s.queues,
      strictPriority: s.strictPriority,
      status: s.status,
      startedAt: iso(s.startedAt),
      activeWorkerCount: s.activeWorkerCount,
      workers: s.workers.map((w) => {
        // Shared by every tab polling the servers page: a preview, like a task list row.
        const p = encodeBytes(w.taskPayload, LIST_PAYLOAD_LIMIT);
        return {
          taskId: w.taskId,
          taskType: w.taskType,
          queue: w.queue,
          payload: p.text,
          payloadEncoding: p.encoding,
          payloadSize: w.taskPayload.length,
          payloadTruncated: p.truncated,
          startedAt: iso(w.startedAt),
          deadline: iso(w.deadline),
        };
      }),
    })),
  };
}

export function toSchedulerListDto(entries: SchedulerEntryInfo[]): SchedulerListDto {
  return {
    entries: entries.map((e) => {
      const p = encodeBytes(e.taskPayload);
      return {
        id: e.id,
        schedulerId: e.schedulerId,
        spec: e.spec,
        taskType: e.taskType,
        payload: p.text,
        payloadEncoding: p.encoding,
        options: e.enqueueOptions,
        nextEnqueueAt: iso(e.nextEnqueueAt),
        prevEnqueueAt: iso(e.prevEnqueueAt),
      };
    }),
  };
}

export { iso };
