/**
 * Cached views: one read per key per TTL shared by every caller, failures and refused answers
 * not kept, the oldest key dropped when full, and invalidateViews() clearing only the views a
 * mutation can change. The snapshot over a real Redis is tested in tests/integration/api/shared-snapshot.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedView, invalidateViews } from '@/lib/server/cache/views';

let n = 0;
/** A read that counts its calls and answers `value` (or fails with it, when it is an Error). */
function counted<T>(value: T | Error) {
  const read = vi.fn(() => (value instanceof Error ? Promise.reject(value) : Promise.resolve(value)));
  return read;
}
const view = <T>(rules: Partial<Parameters<typeof cachedView<T>>[0]> = {}) =>
  cachedView<T>({ name: `test-${++n}`, ttlMs: 1000, changedByMutations: true, ...rules });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('cachedView', () => {
  it('shares one read between concurrent callers and reuses it for ttlMs', async () => {
    const v = view<number>();
    const read = counted(1);
    const all = await Promise.all([v('k', read), v('k', read), v('k', read)]);
    expect(all).toEqual([1, 1, 1]);
    await vi.advanceTimersByTimeAsync(999);
    await v('k', read);
    expect(read).toHaveBeenCalledTimes(1);
    await v('other', read);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await v('k', read);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('counts an answer\'s age from when it lands: a read longer than the TTL is reused for the TTL after it', async () => {
    const v = view<number>();
    let calls = 0;
    const slow = () => {
      calls++;
      return new Promise<number>((resolve) => setTimeout(() => resolve(calls), 3000));
    };
    const first = v('k', slow);
    await vi.advanceTimersByTimeAsync(2000);
    // Still in flight past the TTL: shared, not read again.
    const during = v('k', slow);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await first).toBe(1);
    expect(await during).toBe(1);
    // Landed just now: fresh for the TTL from here.
    await vi.advanceTimersByTimeAsync(900);
    expect(await v('k', slow)).toBe(1);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    const next = v('k', slow);
    await vi.advanceTimersByTimeAsync(3000);
    expect(await next).toBe(2);
  });

  it('reads on every call when the TTL is 0, read each time from its rule', async () => {
    let ttl = 0;
    const v = view<number>({ ttlMs: () => ttl });
    const read = counted(1);
    await Promise.all([v('k', read), v('k', read)]);
    expect(read).toHaveBeenCalledTimes(2);
    ttl = 1000;
    await Promise.all([v('k', read), v('k', read)]);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('does not keep a failed read, nor an answer `keep` refuses', async () => {
    const v = view<{ complete: boolean }>({ keep: (d) => d.complete });
    await expect(v('k', counted<{ complete: boolean }>(new Error('down')))).rejects.toThrow('down');
    const running = counted({ complete: false });
    await v('k', running);
    await v('k', running);
    expect(running).toHaveBeenCalledTimes(2);
    const done = counted({ complete: true });
    await v('k', done);
    await v('k', done);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('drops the oldest key when full', async () => {
    const v = view<string>({ maxEntries: 2 });
    const read = counted('x');
    await v('a', read);
    await v('b', read);
    await v('c', read);
    expect(read).toHaveBeenCalledTimes(3);
    await v('b', read);
    await v('c', read);
    expect(read).toHaveBeenCalledTimes(3);
    await v('a', read);
    expect(read).toHaveBeenCalledTimes(4);
  });

  it('is cleared by invalidateViews() when a mutation can change it, and kept otherwise', async () => {
    const live = view<number>({ ttlMs: 60_000 });
    const slow = view<number>({ ttlMs: 60_000, changedByMutations: false });
    const a = counted(1);
    const b = counted(2);
    await live('k', a);
    await slow('k', b);
    invalidateViews();
    await live('k', a);
    await slow('k', b);
    expect(a).toHaveBeenCalledTimes(2);
    expect(b).toHaveBeenCalledTimes(1);
  });

  it('shares its entries with every declaration of the same name (one per bundle)', async () => {
    const name = `shared-${++n}`;
    const first = cachedView<number>({ name, ttlMs: 1000, changedByMutations: true });
    const second = cachedView<number>({ name, ttlMs: 1000, changedByMutations: true });
    const read = counted(1);
    await first('k', read);
    await second('k', read);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
