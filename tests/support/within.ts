/**
 * Bounds one step of a test that drives other processes (Go programs, Redis topologies), so
 * that a stall fails naming the step instead of running into the test's own timeout.
 */
export async function within<T>(label: string, work: Promise<T>, ms = 20_000): Promise<T> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${label}: no answer after ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    // A slow step that still made it is worth seeing in the log of a loaded CI machine.
    if (Date.now() - started > 2000) console.log(`[step] ${label} took ${Date.now() - started} ms`);
  }
}
