import 'server-only';
import type { TaskState } from '@asynqlens/asynq';
import { getInspector } from '../redis/client';
import { createScanRegistry } from './scan-jobs';

/**
 * Triage scans (failures + not-found, task-type census), one per kind and queue filter. A
 * request waits up to `waitMs` for its scan: a typical Redis answers complete in that one
 * request; a huge one answers `complete: false` with progress and the next request reads
 * further. A finished scan is reused for 10 s (every viewer polling within that time shares it);
 * one nobody has asked about for a minute is stopped, as these start on their own when a page opens.
 */
const scans = createScanRegistry({ kind: 'triage', keepMs: 10_000, idleMs: 60_000, maxRunning: 4, whenFull: 'wait for one to finish' });

/** Retry and archived tasks of `queue` (or every queue): one scan serves the failures view and not-found triage. */
export const failureScan = (queue: string | undefined, waitMs: number) =>
  scans.join(['failures', queue ?? null], (signal) => getInspector().failureScan({ queue, signal }), waitMs);

/** Task types per queue and state; a state named twice is counted once. */
export function typeCensus(queue: string | undefined, states: readonly TaskState[] | undefined, waitMs: number) {
  const only = states ? [...new Set(states)] : undefined;
  return scans.join(['types', queue ?? null, only ?? null], (signal) => getInspector().typeCensus({ queue, ...(only ? { states: only } : {}), signal }), waitMs);
}

/** Stops and forgets every triage scan (after a re-run their counts are stale). */
export const forgetTriageScans = (): void => scans.forget();
