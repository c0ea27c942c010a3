import 'server-only';
import type { LockInfo, LockPage } from '@asynqlens/asynq';
import type {
  DuplicatesQuery,
  DuplicatesReportDto,
  LockDto,
  LockListDto,
  QueueLockListQuery,
  ResolveDuplicatesResultDto,
} from '@/lib/contract/diagnostics';
import { cancelDuplicateScan, duplicateScan, forgetDuplicateScans } from '../jobs/duplicate-scans';
import { toItemFailure } from '../dto/failures';
import { HttpError } from '../http/errors';
import { getInspector } from '../redis/client';
import { shared } from '../cache/snapshot';

const iso = (d: Date | null): string | null => (d ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : null);

function toLockDto(l: LockInfo): LockDto {
  return {
    queue: l.queue,
    key: l.key,
    taskType: l.taskType,
    payloadMd5: l.payloadMd5,
    ttlSeconds: l.ttlSeconds,
    expiresAt: iso(l.expiresAt),
    holderId: l.holderId,
    holderState: l.holderState,
    holderRetried: l.holder.retried,
    holderMaxRetry: l.holder.maxRetry,
    holderNextAttemptAt: iso(l.holder.nextAttemptAt),
    findings: l.findings,
  };
}

const toListDto = (p: LockPage): LockListDto => ({ locks: p.locks.map(toLockDto), cursor: p.cursor });

/**
 * One page of a queue's locks (a bounded SCAN slice; pass `cursor` back for the next), or with
 * `key` just that lock (an empty list when it does not exist).
 */
export function listLocks(qname: string, q: QueueLockListQuery): Promise<LockListDto> {
  const { key, cursor } = q;
  if (key !== undefined) {
    return shared(`lock:${JSON.stringify([qname, key])}`, async () => {
      const lock = await getInspector().queueLock(qname, key);
      return { locks: lock ? [toLockDto(lock)] : [], cursor: null };
    });
  }
  return shared(`locks:${JSON.stringify([qname, cursor ?? '0'])}`, async () => toListDto(await getInspector().queueLocks(qname, { cursor })));
}

/** One page of the locks of every queue, removed queues included. */
export function listEveryLock(cursor: string | undefined): Promise<LockListDto> {
  return shared(`locks:*:${cursor ?? '0'}`, async () => toListDto(await getInspector().allLocks({ cursor })));
}

/**
 * Deletes one lock: 204, or 404 lock_not_found, or 409 failed_precondition when its holder may
 * still run or (with `holder`) the lock now belongs to another task.
 */
export async function releaseQueueLock(qname: string, key: string, holder: string | undefined): Promise<void> {
  const r = await getInspector().releaseLock(qname, key, holder);
  if (r.released) return;
  if (r.reason === 'not_found') {
    throw new HttpError(404, 'lock_not_found', `lock ${key} does not exist (it expired or was released)`, { key });
  }
  if (r.reason === 'owner_changed') {
    throw new HttpError(409, 'failed_precondition', `lock changed owner: it is now held by task ${r.holderId}, not ${holder ?? ''}; nothing was deleted`, {
      key, holderId: r.holderId, expectedHolderId: holder ?? null,
    });
  }
  throw new HttpError(409, 'failed_precondition', `lock is held by task ${r.holderId}, which is ${r.holderState}: releasing it would let a duplicate in while that task may still run`, {
    key, holderId: r.holderId, holderState: r.holderState,
  });
}

/** Starts (or continues) the duplicate scan of these states and answers its progress so far. */
export async function getDuplicates(qname: string, q: DuplicatesQuery): Promise<DuplicatesReportDto> {
  const job = await duplicateScan(qname, q.states, q.samples);
  const r = job.scan.report();
  return {
    queue: qname,
    states: q.states,
    complete: r.complete,
    scanned: r.scanned,
    total: r.total,
    skipped: r.skipped,
    unreadable: r.unreadable,
    exactGroups: r.exactGroups,
    nearGroups: r.nearGroups,
    surplusTasks: r.surplusTasks,
    nearCapped: r.nearCapped,
    startedAt: iso(job.startedAt) ?? '',
    finishedAt: iso(job.finishedAt),
    groups: r.groups.map((g) => ({ ...g, taskIds: g.tasks.map((t) => t.id) })),
  };
}

/** Cancels the scan of these states: 204, or 404 when none is running or kept. */
export function cancelDuplicates(qname: string, q: DuplicatesQuery): Promise<void> {
  if (cancelDuplicateScan(qname, q.states, q.samples)) return Promise.resolve();
  return Promise.reject(new HttpError(404, 'scan_not_found', `no duplicate scan of ${q.states.join(',')} in queue ${JSON.stringify(qname)}`));
}

/** Deletes the given tasks (any state but active) and forgets the queue's scans, whose counts are now stale. */
export async function resolveDuplicates(qname: string, taskIds: string[]): Promise<ResolveDuplicatesResultDto> {
  try {
    const r = await getInspector().deleteTasks(qname, taskIds);
    return { deleted: r.deleted, failed: r.failed.map(toItemFailure) };
  } finally {
    forgetDuplicateScans(qname);
  }
}
