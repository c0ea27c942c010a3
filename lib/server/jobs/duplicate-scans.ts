import 'server-only';
import type { TaskState } from '@asynqlens/asynq';
import { getInspector } from '../redis/client';
import { createScanRegistry } from './scan-jobs';

/**
 * Duplicate scans, one per (queue, states, samples): the first GET starts one, later GETs read
 * its progress, DELETE cancels it. A finished scan's result is kept for a minute, and a scan runs
 * to its end however long its page is left: it is started by hand and may be huge.
 */
const scans = createScanRegistry({ kind: 'duplicate', keepMs: 60_000, maxRunning: 4, whenFull: 'cancel one or wait for it to finish' });

const key = (qname: string, states: readonly string[], samples: number) => [qname, states, samples];

/** The scan of these states, started if there is none; sized (queue check, totals) before it answers. */
export const duplicateScan = (qname: string, states: TaskState[], samples: number) =>
  scans.join(key(qname, states, samples), (signal) => getInspector().duplicateScan(qname, { states, samples, signal }));

/** Stops and forgets a scan; false when there was none. */
export const cancelDuplicateScan = (qname: string, states: readonly string[], samples: number): boolean =>
  scans.cancel(key(qname, states, samples));

/** Stops and forgets every scan of a queue (after tasks were deleted, their counts are stale). */
export const forgetDuplicateScans = (qname: string): void => scans.forget([qname]);
