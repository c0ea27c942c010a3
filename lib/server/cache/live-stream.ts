import 'server-only';
import { env } from '../config/env';
import { HttpError } from '../http/errors';
import { liveSnapshot, type LiveSnapshot, type LiveView } from './live-snapshot';

/**
 * The live snapshot pushed to every open stream (GET /api/snapshot/stream): one broadcaster per
 * distinct view and tick, which while it has subscribers builds the snapshot once per tick on
 * the server's clock (through liveSnapshot(), so streams and polls of a view share each build),
 * frames it once as a server-sent event (`id:` the ETag, `data:` the JSON) and writes those same
 * bytes to every subscriber that does not hold that ETag yet. An unchanged tick writes nothing;
 * a comment (`:`) every HEARTBEAT_MS keeps proxies from closing an idle stream.
 *
 * Redis cost: one build per view per tick (liveSnapshot's), whatever the number of subscribers.
 * Bounded: subscribers per process and distinct views (a 503 `stream_limit` past either; the
 * browser then polls), and bytes queued per subscriber (one whose socket stopped draining is
 * dropped, not buffered without bound).
 */

export interface StreamLimits {
  maxSubscribers: number;
  maxViews: number;
  /** Bytes a subscriber may leave unread before a write; past it the subscriber is dropped. */
  maxBufferedBytes: number;
  heartbeatMs: number;
}

/** Proxies commonly close a response idle for 30–60 s. */
export const HEARTBEAT_MS = 25_000;
/** While Redis fails, tick at least this often (the browser poller's DOWN_PROBE_MS), so the banner clears soon after it recovers. */
const FAILING_TICK_MS = 2000;
/** A few snapshots of a large table page: a subscriber this far behind has a stuck socket. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

interface Subscriber {
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** The ETag this subscriber holds (sent, or named by Last-Event-ID). */
  holds: string | null;
  /** Bytes enqueued and not yet read by the server's writer: the queue strategy's measure. */
  queued: () => number;
}

interface Broadcaster {
  key: string;
  view: LiveView;
  everyMs: number;
  subscribers: Set<Subscriber>;
  last: LiveSnapshot | null;
  /** `last` framed as an event, encoded once. */
  frame: Uint8Array | null;
  timer: ReturnType<typeof setTimeout> | undefined;
  heartbeat: ReturnType<typeof setInterval>;
}

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(':\n\n');
const frameOf = (s: LiveSnapshot) => encoder.encode(`id: ${s.etag}\ndata: ${s.body}\n\n`);

export interface LiveStreams {
  /** A stream of `view`'s snapshots every `everyMs`; ends when `signal` aborts. Throws a 503 past a limit. */
  subscribe(view: LiveView, everyMs: number, lastEventId: string | null, signal: AbortSignal): ReadableStream<Uint8Array>;
  /** Open views and subscribers (tests, and the limits' checks). */
  size(): { views: number; subscribers: number };
}

export function createLiveStreams(limits: () => StreamLimits, build: (view: LiveView) => Promise<LiveSnapshot> = liveSnapshot): LiveStreams {
  const broadcasters = new Map<string, Broadcaster>();
  let subscribers = 0;

  function write(b: Broadcaster, s: Subscriber, bytes: Uint8Array): boolean {
    const queued = s.queued();
    if (queued > 0 && queued + bytes.byteLength > limits().maxBufferedBytes) {
      leave(b, s);
      try {
        s.controller.error(new Error('live stream dropped: the client is not reading'));
      } catch {
        // already closed
      }
      return false;
    }
    s.controller.enqueue(bytes);
    return true;
  }

  function publish(b: Broadcaster): void {
    const { last, frame } = b;
    if (!last || !frame) return;
    for (const s of b.subscribers) if (s.holds !== last.etag && write(b, s, frame)) s.holds = last.etag;
  }

  async function tick(b: Broadcaster): Promise<void> {
    try {
      const snap = await build(b.view);
      if (snap.etag !== b.last?.etag) {
        b.last = snap;
        b.frame = frameOf(snap);
      }
      publish(b);
    } catch {
      // liveSnapshot reports a failed read inside the snapshot; anything else waits a tick.
    }
    if (broadcasters.get(b.key) === b) schedule(b);
  }

  /** The next multiple of the tick on the server's clock: every view ticks in step, and shares liveSnapshot's builds. */
  function schedule(b: Broadcaster): void {
    const every = b.last?.dto.error ? Math.min(b.everyMs, FAILING_TICK_MS) : b.everyMs;
    b.timer = setTimeout(() => void tick(b), every - (Date.now() % every));
  }

  function leave(b: Broadcaster, s: Subscriber): void {
    if (!b.subscribers.delete(s)) return;
    subscribers--;
    if (b.subscribers.size > 0) return;
    clearTimeout(b.timer);
    clearInterval(b.heartbeat);
    broadcasters.delete(b.key);
  }

  function open(key: string, view: LiveView, everyMs: number): Broadcaster {
    const subs = new Set<Subscriber>();
    const heartbeat = setInterval(() => {
      for (const s of subs) write(b, s, HEARTBEAT);
    }, limits().heartbeatMs);
    const b: Broadcaster = { key, view, everyMs, subscribers: subs, last: null, frame: null, timer: undefined, heartbeat };
    broadcasters.set(key, b);
    void tick(b);
    return b;
  }

  return {
    subscribe(view, everyMs, lastEventId, signal) {
      const { maxSubscribers, maxViews, maxBufferedBytes } = limits();
      const key = `${everyMs}\n${view.table ? `t\n${view.page}\n${view.q}` : 's'}`;
      let b = broadcasters.get(key);
      if (subscribers >= maxSubscribers) throw streamLimit(`${maxSubscribers} live streams`);
      if (!b && broadcasters.size >= maxViews) throw streamLimit(`live streams of ${maxViews} different views`);
      b ??= open(key, view, everyMs);
      const owner = b;
      let sub: Subscriber | undefined;
      const strategy = new ByteLengthQueuingStrategy({ highWaterMark: maxBufferedBytes });
      const stream = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            sub = { controller, holds: lastEventId, queued: () => maxBufferedBytes - (controller.desiredSize ?? 0) };
            owner.subscribers.add(sub);
            subscribers++;
            // Headers go out with the first bytes; a viewer that already holds the snapshot gets only this.
            controller.enqueue(HEARTBEAT);
            publish(owner);
          },
          cancel() {
            if (sub) leave(owner, sub);
          },
        },
        strategy,
      );
      const end = () => {
        if (!sub) return;
        leave(owner, sub);
        try {
          sub.controller.close();
        } catch {
          // already closed or errored
        }
      };
      if (signal.aborted) end();
      else signal.addEventListener('abort', end, { once: true });
      return stream;
    },
    size: () => ({ views: broadcasters.size, subscribers }),
  };
}

function streamLimit(what: string): HttpError {
  return new HttpError(503, 'stream_limit', `This server already holds ${what}; poll GET /api/snapshot instead.`);
}

let shared: LiveStreams | undefined;

/** The process' streams, bounded by the settings (ASYNQLENS_STREAM_MAX_SUBSCRIBERS, ASYNQLENS_STREAM_MAX_VIEWS). */
export function liveStreams(): LiveStreams {
  return (shared ??= createLiveStreams(() => ({
    maxSubscribers: env().ASYNQLENS_STREAM_MAX_SUBSCRIBERS,
    maxViews: env().ASYNQLENS_STREAM_MAX_VIEWS,
    maxBufferedBytes: MAX_BUFFERED_BYTES,
    heartbeatMs: HEARTBEAT_MS,
  })));
}
