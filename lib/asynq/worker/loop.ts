/**
 * A stoppable periodic job, the shape shared by the heartbeat, forwarder, janitor,
 * recoverer and aggregator: run, wait the interval, run again; never two runs at once.
 */

/** A running periodic job. */
export interface Loop {
  /** Stops the timer and resolves after the run in progress, if any, has finished. */
  stop(): Promise<void>;
}

/**
 * Starts `job` now (when `immediately`) or after one interval. A job that throws is
 * reported through `onError` and the loop goes on: a Redis hiccup must not end housekeeping.
 */
export function every(intervalMs: number, job: () => Promise<void>, onError: (err: unknown) => void, immediately = true): Loop {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = job()
      .catch(onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  if (immediately) tick();
  else timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
