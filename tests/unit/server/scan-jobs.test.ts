/**
 * The scan-job registry's rules, on scans whose sizing and end the test decides: one scan per
 * key however many join, the bound on running scans, how long a finished scan is kept, a
 * failure reported once, and idle scans stopped. Duplicate and triage scans on a real Redis go
 * through these rules in tests/integration/diagnostics and tests/integration/triage.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createScanRegistry, type Scan, type ScanRules } from '@/lib/server/jobs/scan-jobs';

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

/** A scan that is sized and ends when the test says, and stops when its signal is aborted. */
class HeldScan implements Scan {
  prepared = 0;
  private sized = deferred();
  private ended = deferred();
  constructor(readonly signal: AbortSignal, sizeAtOnce = true) {
    if (sizeAtOnce) this.sized.resolve();
    signal.addEventListener('abort', () => this.ended.resolve());
  }
  async prepare() {
    this.prepared++;
    await this.sized.promise;
  }
  run() {
    return this.ended.promise;
  }
  size = (err?: Error) => (err ? this.sized.reject(err) : this.sized.resolve());
  end = (err?: Error) => (err ? this.ended.reject(err) : this.ended.resolve());
}

let n = 0;
/** Every test its own kind, so registries (kept on globalThis) never meet. */
function registry(rules: Partial<ScanRules> = {}) {
  const made: HeldScan[] = [];
  const scans = createScanRegistry({ kind: `test-${++n}`, keepMs: 10_000, maxRunning: 2, whenFull: 'wait', ...rules });
  const create = (sizeAtOnce = true) => (signal: AbortSignal) => {
    const s = new HeldScan(signal, sizeAtOnce);
    made.push(s);
    return s;
  };
  return { scans, made, create };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createScanRegistry', () => {
  it('gives every request for a key the one scan, including requests that arrive while it is sized', async () => {
    const { scans, made, create } = registry();
    const first = scans.join(['q'], create(false));
    const second = scans.join(['q'], create(false));
    await vi.advanceTimersByTimeAsync(0);
    expect(made).toHaveLength(1);
    made[0]!.size();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(made[0]!.prepared).toBe(1);
    expect(await scans.join(['q'], create())).toBe(a);
    expect(a.finishedAt).toBeNull();
    // Another key is another scan.
    expect((await scans.join(['other'], create())).scan).not.toBe(a.scan);
  });

  it('waits up to waitMs for the scan, and answers as soon as it ends', async () => {
    const { scans, made, create } = registry();
    const slow = scans.join(['q'], create(), 1000);
    await vi.advanceTimersByTimeAsync(999);
    let answered = false;
    void slow.then(() => (answered = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await slow).finishedAt).toBeNull();

    const early = scans.join(['q'], create(), 60_000);
    await vi.advanceTimersByTimeAsync(10);
    made[0]!.end();
    const job = await early;
    expect(job.finishedAt).toEqual(new Date());
  });

  it('keeps a finished scan for keepMs, then starts a fresh one', async () => {
    const { scans, made, create } = registry({ keepMs: 60_000 });
    const job = await scans.join(['q'], create());
    made[0]!.end();
    await job.done;
    await vi.advanceTimersByTimeAsync(59_999);
    expect(await scans.join(['q'], create())).toBe(job);
    await vi.advanceTimersByTimeAsync(1);
    const fresh = await scans.join(['q'], create());
    expect(fresh).not.toBe(job);
    expect(made).toHaveLength(2);
  });

  it('refuses one scan more than maxRunning with 409, and frees a slot when one ends or is cancelled', async () => {
    const { scans, made, create } = registry({ kind: 'bounded', maxRunning: 2, whenFull: 'cancel one or wait for it to finish' });
    await scans.join(['a'], create());
    await scans.join(['b'], create());
    await expect(scans.join(['c'], create())).rejects.toMatchObject({
      status: 409,
      code: 'failed_precondition',
      message: '2 bounded scans are already running; cancel one or wait for it to finish',
    });
    // Joining a running scan is not starting one.
    await expect(scans.join(['a'], create())).resolves.toBeDefined();
    expect(scans.cancel(['a'])).toBe(true);
    expect(scans.cancel(['a'])).toBe(false);
    await expect(scans.join(['c'], create())).resolves.toBeDefined();
    await expect(scans.join(['d'], create())).rejects.toMatchObject({ status: 409 });
    made[1]!.end();
    await vi.advanceTimersByTimeAsync(0);
    await expect(scans.join(['d'], create())).resolves.toBeDefined();
    expect(made[0]!.signal.aborted).toBe(true);
  });

  it('does not count scans still being sized', async () => {
    const { scans, made, create } = registry({ maxRunning: 1 });
    const sizing = scans.join(['a'], create(false));
    await expect(scans.join(['b'], create())).resolves.toBeDefined();
    made[0]!.size();
    await expect(sizing).resolves.toBeDefined();
    await expect(scans.join(['c'], create())).rejects.toMatchObject({ status: 409 });
  });

  it('reports a failed scan once, then starts over', async () => {
    const { scans, made, create } = registry();
    await scans.join(['q'], create());
    made[0]!.end(new Error('Redis went away'));
    await vi.advanceTimersByTimeAsync(0);
    await expect(scans.join(['q'], create())).rejects.toThrow('Redis went away');
    const again = await scans.join(['q'], create());
    expect(again.scan).toBe(made[1]);
    expect(again.error).toBeNull();
  });

  it('rejects every request waiting on a sizing that fails, and keeps nothing', async () => {
    const { scans, made, create } = registry();
    const a = scans.join(['q'], create(false));
    const b = scans.join(['q'], create(false));
    await vi.advanceTimersByTimeAsync(0);
    made[0]!.size(new Error('queue "q" does not exist'));
    await expect(a).rejects.toThrow('does not exist');
    await expect(b).rejects.toThrow('does not exist');
    await scans.join(['q'], create());
    expect(made).toHaveLength(2);
  });

  it('stops a scan nobody has asked about for idleMs, and not one that is polled', async () => {
    const { scans, made, create } = registry({ idleMs: 60_000 });
    await scans.join(['left'], create());
    await scans.join(['watched'], create());
    for (let t = 0; t < 70_000; t += 10_000) {
      await vi.advanceTimersByTimeAsync(10_000);
      await scans.join(['watched'], create());
    }
    expect(made[0]!.signal.aborted).toBe(true);
    expect(made[1]!.signal.aborted).toBe(false);
    // A stopped scan is forgotten: the next request starts a new one.
    expect((await scans.join(['left'], create())).scan).toBe(made[2]);
  });

  it('runs a scan without idleMs to its end, polled or not', async () => {
    const { scans, made, create } = registry();
    await scans.join(['q'], create());
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(made[0]!.signal.aborted).toBe(false);
  });

  it('forgets the scans whose key starts with a prefix, or all of them', async () => {
    const { scans, made, create } = registry({ maxRunning: 3 });
    await scans.join(['web', ['pending'], 10], create());
    await scans.join(['web', ['retry'], 10], create());
    await scans.join(['webhooks', ['pending'], 10], create());
    scans.forget(['web']);
    expect(made.map((s) => s.signal.aborted)).toEqual([true, true, false]);
    scans.forget();
    expect(made[2]!.signal.aborted).toBe(true);
  });
});
