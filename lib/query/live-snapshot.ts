/**
 * The live snapshot in the browser: one small store per tab, without TanStack Query (the
 * overview's JavaScript budget has no room for it), fed by the snapshot stream while the tab is
 * visible (live-stream.ts: one stream per browser and view, relayed to the browser's other tabs)
 * and by GET /api/snapshot polls otherwise. A poll sends the ETag it holds; the server answers
 * every viewer of a tick with the same bytes, and an unchanged tick with a bodiless 304. The
 * policy is poll-policy.ts: the interval from the settings (the stream's tick too), nothing
 * while the tab is hidden (one read when it shows again), stretched while the ETag stays the
 * same, every DOWN_PROBE_MS while Redis fails, and at once on SHELL_REFRESH_EVENT (a mutation,
 * or a query meeting `redis_unavailable`). When streaming is refused or keeps failing, the tab
 * polls as above.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { LiveSnapshotDto } from '@/lib/contract/live-snapshot';
import { canStream, followLiveStream } from './live-stream';
import { liveSnapshotUrl, liveStreamUrl, type LiveSeed, type QueueTableView } from './live-view';
import { DOWN_PROBE_MS, pollDelay, SHELL_REFRESH_EVENT } from './poll-policy';

interface State {
  /** The newest snapshot received, of whichever view, and that view's address. */
  data: LiveSnapshotDto | null;
  url: string;
  /** The server's clock at the last answer, a 304 included: what a shown latency is aged to. */
  checkedAt: number;
  /** Redis fails (the snapshot says so) or the server cannot be reached. */
  failing: boolean;
}

/**
 * What the server rendered from: no data yet, so every hook shows its seed. Hydration must use
 * this, not the store: the shell and the overview hydrate at different moments (streamed
 * boundaries), and a poll that lands in between would make the second differ from its HTML.
 */
const BEFORE_HYDRATION: State = { data: null, url: '', checkedAt: 0, failing: false };
let state: State = BEFORE_HYDRATION;
const listeners = new Set<() => void>();
/** The ETag held per view address. */
const etags = new Map<string, string>();
/** The overview's table view while it is on screen: polled instead of the shell alone. */
let table: QueueTableView | null = null;
let changedAt = Date.now();
/** The server's clock minus this browser's (from `x-now`): ticks are aligned to the server's. */
let skewMs = 0;
/** Set while the poller runs: follow the view now on screen (the overview came or went). */
let viewChanged: (() => void) | null = null;

function set(next: State): void {
  state = next;
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const current = () => state;

/** A server-rendered seed, taken when it is newer than what the store holds. */
function seed(s: LiveSeed): void {
  etags.set(s.url, s.etag);
  if (!state.data || s.snapshot.at > state.data.at) {
    set({ data: s.snapshot, url: s.url, checkedAt: s.snapshot.at, failing: s.snapshot.error !== null });
  }
}

/** A snapshot event of view `url` (this tab's stream or another tab's relay). */
function receive(url: string, body: string, etag: string, skew: number): void {
  if (url !== liveSnapshotUrl(table)) return;
  const data = JSON.parse(body) as LiveSnapshotDto;
  skewMs = skew;
  etags.set(url, etag);
  if (state.url === url && state.data && data.at <= state.data.at) return;
  changedAt = Date.now();
  set({ data, url, checkedAt: data.at, failing: data.error !== null });
}

let inFlight: Promise<void> | null = null;
let again = false;

async function read(): Promise<void> {
  const url = liveSnapshotUrl(table);
  const etag = etags.get(url);
  try {
    const res = await fetch(url, { cache: 'no-store', headers: etag ? { 'if-none-match': etag, accept: 'application/json' } : { accept: 'application/json' } });
    const at = Number(res.headers.get('x-snapshot-at')) || Date.now();
    const serverNow = Number(res.headers.get('x-now'));
    if (serverNow) skewMs = serverNow - Date.now();
    if (res.status === 304) return set({ ...state, checkedAt: at });
    if (!res.ok) return set({ ...state, failing: true });
    const data = (await res.json()) as LiveSnapshotDto;
    const tag = res.headers.get('etag');
    if (tag) etags.set(url, tag);
    changedAt = Date.now();
    set({ data, url, checkedAt: data.at, failing: data.error !== null });
  } catch {
    set({ ...state, failing: true });
  }
}

/** One read at a time; a read asked for during one runs again after it (it may predate a mutation). */
function poll(): Promise<void> {
  if (inFlight) {
    again = true;
    return inFlight;
  }
  inFlight = read().finally(() => {
    inFlight = null;
    if (again) {
      again = false;
      void poll();
    }
  });
  return inFlight;
}

/**
 * Runs the tab's one follower of the live snapshot (mounted once, in the shell) at
 * `pollIntervalMs` (0 = off): the stream while the tab is visible, polls when it cannot stream.
 * While streaming, the timer reads nothing: it ages the latencies shown (an unchanged tick
 * sends no event), on the server's clock.
 */
export function useLivePolling(pollIntervalMs: number): void {
  useEffect(() => {
    let streaming = pollIntervalMs > 0 && canStream();
    // The stream opens at the first tick a whole interval after the load: the server-rendered
    // seed is current until then, and a request held open from the load would keep the page
    // from ever reaching network idle (what tools and tests wait for).
    const startAt = Date.now() + pollIntervalMs;
    let started = false;
    let unfollow: (() => void) | null = null;
    let following = '';
    const follow = () => {
      const url = liveSnapshotUrl(table);
      const want = streaming && started && !document.hidden ? liveStreamUrl(table, pollIntervalMs) : '';
      if (want === following) return;
      unfollow?.();
      unfollow = null;
      following = want;
      if (!want) return;
      unfollow = followLiveStream(url, want, () => etags.get(url), {
        onSnapshot: receive,
        onFallback: () => {
          streaming = false;
          follow();
          schedule();
        },
      });
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      const delay = streaming ? pollIntervalMs : pollDelay({ baseMs: pollIntervalMs, idleMs: Date.now() - changedAt, failing: state.failing, failingMs: DOWN_PROBE_MS });
      if (delay === false) return;
      // On multiples of the interval by the server's clock (browsers' clocks drift apart): every
      // open tab asks in the same tick, and the server builds that tick's snapshot once for all.
      timer = setTimeout(() => {
        if (streaming) started ||= Date.now() >= startAt;
        if (document.hidden) schedule();
        // Until the stream starts, the tab polls at the same ticks: a Redis that stalls or goes
        // down in the first interval after the load is shown at once, as it always was.
        else if (streaming && started) {
          follow();
          if (state.data) set({ ...state, checkedAt: Math.max(state.checkedAt, Date.now() + skewMs) });
          schedule();
        } else void poll().finally(schedule);
      }, delay - ((Date.now() + skewMs) % delay));
    };
    const now = () => void poll().finally(schedule);
    const onVisible = () => {
      if (!document.hidden) started = true;
      follow();
      if (!document.hidden) now();
    };
    // The overview's effects leave and set its view back to back on a page change: follow once.
    let refollow: ReturnType<typeof setTimeout> | undefined;
    viewChanged = () => {
      clearTimeout(refollow);
      refollow = setTimeout(follow, 0);
    };
    follow();
    schedule();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener(SHELL_REFRESH_EVENT, now);
    return () => {
      clearTimeout(timer);
      clearTimeout(refollow);
      unfollow?.();
      viewChanged = null;
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener(SHELL_REFRESH_EVENT, now);
    };
  }, [pollIntervalMs]);
}

export interface Live {
  snapshot: LiveSnapshotDto;
  /** Seconds the snapshot's latencies have aged since it was read (unchanged ticks send none). */
  ageSeconds: number;
}

const aged = (snapshot: LiveSnapshotDto, checkedAt: number): Live => ({ snapshot, ageSeconds: Math.max(0, Math.round((checkedAt - snapshot.at) / 1000)) });

/** The shell's view (sidebar, status, banner): the newest snapshot of any view. */
export function useLiveShell(seedValue: LiveSeed): Live {
  useEffect(() => seed(seedValue), [seedValue]);
  const s = useSyncExternalStore(subscribe, current, () => BEFORE_HYDRATION);
  return s.data && s.data.at >= seedValue.snapshot.at ? aged(s.data, s.checkedAt) : aged(seedValue.snapshot, seedValue.snapshot.at);
}

/** The overview's view: the shell plus its page of the queue table, followed while it is on screen. */
export function useLiveTable(seedValue: LiveSeed, view: QueueTableView): Live {
  const { page, q } = view;
  useEffect(() => {
    seed(seedValue);
    table = { page, q };
    viewChanged?.();
    return () => {
      table = null;
      viewChanged?.();
    };
  }, [seedValue, page, q]);
  const s = useSyncExternalStore(subscribe, current, () => BEFORE_HYDRATION);
  return s.data && s.url === seedValue.url && s.data.at >= seedValue.snapshot.at ? aged(s.data, s.checkedAt) : aged(seedValue.snapshot, seedValue.snapshot.at);
}
