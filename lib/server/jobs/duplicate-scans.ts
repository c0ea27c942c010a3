import 'server-only';
import { createDuplicateScan, type DuplicateScan, type TaskState } from '@/lib/asynq';
import { HttpError } from '../http/errors';
import { getRedis } from '../redis/client';

/**
 * Duplicate scans run in this process, one per (queue, states, samples), so a page that polls
 * continues the same scan instead of starting over: the first GET starts it, later GETs read
 * its progress, DELETE cancels it. A finished scan's result is kept for KEEP_MS, then the next
 * GET starts a fresh one. In memory only: a restart forgets the scans (they are cheap to redo).
 */
export interface DuplicateJob {
  key: string;
  qname: string;
  states: TaskState[];
  scan: DuplicateScan;
  controller: AbortController;
  startedAt: Date;
  finishedAt: Date | null;
  /** Why the scan failed; the next GET reports it once and starts over. */
  error: unknown;
  done: Promise<void>;
}

export const KEEP_MS = 60_000;
/** Scans running at once in this process; a further one is refused until one ends. */
export const MAX_RUNNING = 4;

// On globalThis so that hot reloads in development keep the running scans.
const g = globalThis as unknown as { asynqlensDuplicateJobs?: Map<string, DuplicateJob> };
const jobs: Map<string, DuplicateJob> = (g.asynqlensDuplicateJobs ??= new Map<string, DuplicateJob>());

export const jobKey = (qname: string, states: readonly string[], samples: number): string =>
  JSON.stringify([qname, states, samples]);

function forget(job: DuplicateJob): void {
  if (jobs.get(job.key) === job) jobs.delete(job.key);
}

/**
 * The scan for these parameters, started if there is none. A new scan is sized (queue check,
 * totals) before this returns, so an unknown queue is a 404 at once.
 */
export async function duplicateJob(qname: string, states: TaskState[], samples: number): Promise<DuplicateJob> {
  const key = jobKey(qname, states, samples);
  const existing = jobs.get(key);
  if (existing) return existing;
  const running = [...jobs.values()].filter((j) => j.finishedAt === null).length;
  if (running >= MAX_RUNNING) {
    throw new HttpError(409, 'failed_precondition', `${running} duplicate scans are already running; cancel one or wait for it to finish`);
  }
  const controller = new AbortController();
  const scan = createDuplicateScan(getRedis(), qname, { states, samples, signal: controller.signal });
  await scan.prepare();
  // Another request may have started the same scan while this one was sizing it.
  const raced = jobs.get(key);
  if (raced) return raced;
  const job: DuplicateJob = { key, qname, states, scan, controller, startedAt: new Date(), finishedAt: null, error: null, done: Promise.resolve() };
  job.done = scan.run().then(
    () => finish(job, null),
    (err: unknown) => finish(job, err),
  );
  jobs.set(key, job);
  return job;
}

function finish(job: DuplicateJob, error: unknown): void {
  job.finishedAt = new Date();
  job.error = error;
  if (job.controller.signal.aborted) {
    forget(job);
    return;
  }
  setTimeout(() => forget(job), KEEP_MS).unref();
}

/** Stops and forgets a scan; false when there was none. */
export function cancelDuplicateJob(qname: string, states: readonly string[], samples: number): boolean {
  const job = jobs.get(jobKey(qname, states, samples));
  if (!job) return false;
  job.controller.abort();
  forget(job);
  return true;
}

/** Forgets a failed scan so the next request starts a new one, and returns its error. */
export function takeError(job: DuplicateJob): unknown {
  forget(job);
  return job.error;
}

/** Stops and forgets every scan of a queue (after tasks were deleted, their counts are stale). */
export function forgetScans(qname: string): void {
  for (const job of [...jobs.values()]) {
    if (job.qname !== qname) continue;
    job.controller.abort();
    forget(job);
  }
}
