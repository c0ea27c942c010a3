import 'server-only';
import { HttpError } from '../http/errors';

/**
 * Long-running scans in this process, one per key, so that every poller continues the same
 * scan instead of starting its own: the first request starts it, later ones read its progress
 * (requests arriving while it is being sized wait for that one sizing). A finished scan is
 * answered for `keepMs`, then the next request starts a fresh one. A failed scan reports its
 * error to the next request, once, and the one after starts over. At most `maxRunning` run at
 * once per kind; one more is refused with 409 until one ends or is stopped. In memory only: a
 * restart forgets the scans (they are cheap to redo).
 */

/** What a registry runs. prepare() sizes the scan and checks its queue; run() reads to the end or until its signal is aborted. */
export interface Scan {
  prepare(): Promise<void>;
  run(): Promise<void>;
}

export interface ScanJob<S extends Scan> {
  readonly scan: S;
  readonly startedAt: Date;
  finishedAt: Date | null;
  error: Error | null;
  /** Settles when run() ends, whichever way. */
  done: Promise<void>;
}

export interface ScanRules {
  /** Names the scans in the 409 ("duplicate" scans) and their registry on globalThis. */
  kind: string;
  /** How long a finished scan is answered (and shared by every poller) before the next request starts over. */
  keepMs: number;
  /** Scans of this kind running at once; sizing scans do not count. */
  maxRunning: number;
  /** What the 409 suggests to whoever was refused. */
  whenFull: string;
  /** A running scan nobody asked about for this long is stopped; without it a scan runs to its end. */
  idleMs?: number;
}

/** A scan's identity: its kind's parameters, compared as JSON; forget() matches leading parts. */
export type ScanKey = readonly (string | number | null | readonly string[])[];

export interface ScanRegistry {
  /**
   * The scan for `key`, started with `create` when there is none (or the kept one is older than
   * keepMs), after waiting up to `waitMs` for it to finish. Rejects with prepare()'s error (an
   * unknown queue is a 404 at once), with a scan's failure once, or 409 when the kind is full.
   */
  join<S extends Scan>(key: ScanKey, create: (signal: AbortSignal) => S, waitMs?: number): Promise<ScanJob<S>>;
  /** Stops and forgets the scan for `key`; false when there was none. */
  cancel(key: ScanKey): boolean;
  /** Stops and forgets every scan whose key starts with `prefix` (all of them without one). */
  forget(prefix?: ScanKey): void;
}

/** How often a running scan checks whether anybody still polls it. */
const IDLE_CHECK_MS = 5000;

interface Entry {
  readonly parts: ScanKey;
  readonly controller: AbortController;
  /** The job once sized; rejects with prepare()'s error. */
  readonly ready: Promise<ScanJob<Scan>>;
  polledAt: number;
}

interface State {
  entries: Map<string, Entry>;
  /** Entries whose run() is under way and that nobody stopped: what maxRunning bounds. */
  running: Set<Entry>;
}

// On globalThis so that hot reloads in development keep the running scans.
const g = globalThis as unknown as { asynqlensScanJobs?: Map<string, State> };
const registries: Map<string, State> = (g.asynqlensScanJobs ??= new Map<string, State>());

export function createScanRegistry(rules: ScanRules): ScanRegistry {
  let state = registries.get(rules.kind);
  if (!state) registries.set(rules.kind, (state = { entries: new Map(), running: new Set() }));
  const { entries, running } = state;

  const drop = (key: string, e: Entry) => {
    if (entries.get(key) === e) entries.delete(key);
  };
  const stop = (key: string, e: Entry) => {
    e.controller.abort();
    running.delete(e);
    drop(key, e);
  };
  const expired = (j: ScanJob<Scan>) => j.finishedAt !== null && Date.now() - j.finishedAt.getTime() > rules.keepMs;

  function run(key: string, e: Entry, job: ScanJob<Scan>): void {
    const { signal } = e.controller;
    if (!signal.aborted) running.add(e);
    const idle = rules.idleMs === undefined ? undefined : setInterval(() => {
      if (Date.now() - e.polledAt > rules.idleMs!) stop(key, e);
    }, IDLE_CHECK_MS);
    idle?.unref();
    job.done = job.scan
      .run()
      .catch((err: unknown) => {
        job.error = err instanceof Error ? err : new Error(`scan failed: ${JSON.stringify(err)}`);
      })
      .finally(() => {
        clearInterval(idle);
        running.delete(e);
        job.finishedAt = new Date();
        if (signal.aborted) drop(key, e);
        else setTimeout(() => drop(key, e), rules.keepMs).unref();
      });
  }

  /** Starts a scan under `key`; synchronous from the check to the map, so two requests never both start one. */
  function start(key: string, parts: ScanKey, create: (signal: AbortSignal) => Scan): Entry {
    if (running.size >= rules.maxRunning) {
      throw new HttpError(409, 'failed_precondition', `${running.size} ${rules.kind} scans are already running; ${rules.whenFull}`);
    }
    const controller = new AbortController();
    const size = async (): Promise<ScanJob<Scan>> => {
      const scan = create(controller.signal);
      await scan.prepare();
      const job: ScanJob<Scan> = { scan, startedAt: new Date(), finishedAt: null, error: null, done: Promise.resolve() };
      run(key, e, job);
      return job;
    };
    const e: Entry = { parts, controller, ready: size(), polledAt: Date.now() };
    e.ready.catch(() => drop(key, e));
    entries.set(key, e);
    return e;
  }

  /** The live entry for `key` (a kept one younger than keepMs), or a newly started one. */
  async function entryFor(key: string, parts: ScanKey, create: (signal: AbortSignal) => Scan): Promise<Entry> {
    for (;;) {
      const e = entries.get(key);
      if (!e) return start(key, parts, create);
      // A failed sizing fails every request that waited on it (an unknown queue is one 404 each).
      const job = await e.ready;
      // Another request replaced or dropped it meanwhile: look again.
      if (entries.get(key) !== e) continue;
      if (!expired(job)) return e;
      drop(key, e);
    }
  }

  return {
    async join<S extends Scan>(parts: ScanKey, create: (signal: AbortSignal) => S, waitMs = 0): Promise<ScanJob<S>> {
      const key = JSON.stringify(parts);
      const e = await entryFor(key, parts, create);
      const job = (await e.ready) as ScanJob<S>;
      e.polledAt = Date.now();
      if (job.finishedAt === null && waitMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([job.done, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
        clearTimeout(timer);
      }
      if (job.error) {
        drop(key, e);
        throw job.error;
      }
      return job;
    },
    cancel(parts: ScanKey): boolean {
      const key = JSON.stringify(parts);
      const e = entries.get(key);
      if (!e) return false;
      stop(key, e);
      return true;
    },
    forget(prefix: ScanKey = []): void {
      const head = JSON.stringify(prefix);
      for (const [key, e] of [...entries]) if (JSON.stringify(e.parts.slice(0, prefix.length)) === head) stop(key, e);
    },
  };
}
