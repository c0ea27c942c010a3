import 'server-only';
import { HttpError } from '../http/errors';

/**
 * Triage scans (failures + not-found, task-type census) run in this process, one per key (the
 * kind of scan and its queue filter), so pollers continue one scan instead of each starting
 * their own. A request waits up to `wait` ms for its scan: a typical Redis answers complete in
 * that one request; a huge one answers `complete: false` with progress and the next request
 * reads further. A finished scan is reused for KEEP_MS (every viewer polling within that time
 * shares it), then the next request starts a fresh one. A scan nobody has asked about for
 * IDLE_MS is stopped. In memory only: a restart forgets the scans (they are cheap to redo).
 */
export interface Scan {
  prepare(): Promise<void>;
  run(): Promise<void>;
}

export interface ScanJob<S extends Scan> {
  scan: S;
  startedAt: Date;
  finishedAt: Date | null;
  error: Error | null;
  done: Promise<void>;
  controller: AbortController;
  polledAt: number;
}

export const KEEP_MS = 10_000;
export const IDLE_MS = 60_000;
/** Scans running at once in this process; a further one is refused until one ends. */
export const MAX_RUNNING = 4;

type AnyJob = ScanJob<Scan>;
/** A map entry: the job once sized, and the promise of it while prepare() runs. */
interface Entry {
  ready: Promise<AnyJob>;
}
// On globalThis so that hot reloads in development keep the running scans.
const g = globalThis as unknown as { asynqlensTriageJobs?: Map<string, Entry>; asynqlensTriageRunning?: Set<AnyJob> };
const jobs: Map<string, Entry> = (g.asynqlensTriageJobs ??= new Map<string, Entry>());
const running: Set<AnyJob> = (g.asynqlensTriageRunning ??= new Set<AnyJob>());

function forget(key: string, e: Entry): void {
  if (jobs.get(key) === e) jobs.delete(key);
}

async function start(key: string, e: Entry, create: (signal: AbortSignal) => Scan): Promise<AnyJob> {
  if (running.size >= MAX_RUNNING) {
    throw new HttpError(409, 'failed_precondition', `${running.size} triage scans are already running; wait for one to finish`);
  }
  const controller = new AbortController();
  const scan = create(controller.signal);
  // Sized first, so an unknown queue is a 404 at once.
  await scan.prepare();
  const job: AnyJob = { scan, startedAt: new Date(), finishedAt: null, error: null, done: Promise.resolve(), controller, polledAt: Date.now() };
  running.add(job);
  const idle = setInterval(() => {
    if (Date.now() - job.polledAt > IDLE_MS) controller.abort();
  }, 5000);
  idle.unref();
  job.done = scan
    .run()
    .catch((err: unknown) => {
      job.error = err instanceof Error ? err : new Error(`scan failed: ${JSON.stringify(err)}`);
    })
    .finally(() => {
      clearInterval(idle);
      running.delete(job);
      job.finishedAt = new Date();
      if (controller.signal.aborted) forget(key, e);
      else setTimeout(() => forget(key, e), KEEP_MS).unref();
    });
  return job;
}

/**
 * The scan for `key`, started with `create` when there is none (or the kept one finished more
 * than KEEP_MS ago), after waiting up to `waitMs` for it to finish. Rethrows a scan's error
 * once (the next request starts over); throws 409 when MAX_RUNNING scans are running.
 */
export async function scanJob<S extends Scan>(key: string, create: (signal: AbortSignal) => S, waitMs: number): Promise<ScanJob<S>> {
  let e = jobs.get(key);
  if (e) {
    const j = await e.ready.catch(() => null);
    if (!j || (j.finishedAt && Date.now() - j.finishedAt.getTime() > KEEP_MS)) {
      forget(key, e);
      e = undefined;
    }
  }
  if (!e) {
    const fresh: Entry = { ready: Promise.resolve(null as unknown as AnyJob) };
    fresh.ready = start(key, fresh, create);
    fresh.ready.catch(() => forget(key, fresh));
    jobs.set(key, fresh);
    e = fresh;
  }
  const job = (await e.ready) as ScanJob<S>;
  job.polledAt = Date.now();
  if (job.finishedAt === null && waitMs > 0) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([job.done, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
  }
  if (job.error) {
    forget(key, e);
    throw job.error;
  }
  return job;
}

/** Stops and forgets every scan (after a re-run their counts are stale). */
export function forgetTriageScans(): void {
  for (const [key, e] of [...jobs]) {
    forget(key, e);
    e.ready.then((j) => j.controller.abort(), () => {});
  }
}
