/**
 * Following the live snapshot stream (GET /api/snapshot/stream) from a tab. Browsers open at
 * most 6 HTTP/1.1 connections per host, so the tabs of one browser showing the same view do not
 * each hold a stream: a Web Lock per stream address elects one tab, which reads the stream and
 * relays every snapshot through a BroadcastChannel to the others; when it closes (or hides, or
 * moves to another view) its lock goes to a waiting tab, which opens the stream in turn. Without
 * Web Locks or BroadcastChannel every tab reads its own stream.
 *
 * The stream is read with fetch, not EventSource: the first request can name the ETag the tab
 * already holds (Last-Event-ID, so an unchanged view sends nothing), and a refusal (a 503
 * `stream_limit`, a proxy that answers something else) is seen and turned into polling.
 */
import { DOWN_PROBE_MS } from './poll-policy';

export interface StreamHandlers {
  /** A snapshot event, from this tab's stream or relayed: its view address, JSON, ETag and the server's clock skew. */
  onSnapshot(url: string, body: string, etag: string, skewMs: number): void;
  /** The server refused the stream or streaming keeps failing: poll instead. */
  onFallback(): void;
}

type Relay = { kind: 'snapshot'; url: string; body: string; etag: string; skewMs: number } | { kind: 'want'; url: string };

const CHANNEL = 'asynqlens:live';
/** Opening attempts in a row that fail (network, server gone) before the tab polls instead. */
const MAX_FAILED_OPENS = 3;

export const canStream = (): boolean => typeof ReadableStream !== 'undefined' && typeof TextDecoder !== 'undefined';

/**
 * Follows view `url` through `streamUrl` until the returned function is called: as the elected
 * tab (reading the stream) or as a follower (taking its relays). `etag` is the ETag held now.
 */
export function followLiveStream(url: string, streamUrl: string, etag: () => string | undefined, h: StreamHandlers): () => void {
  const stop = new AbortController();
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  let latest: Extract<Relay, { kind: 'snapshot' }> | null = null;
  let holding = false;

  const deliver = (body: string, id: string, skewMs: number) => {
    latest = { kind: 'snapshot', url, body, etag: id, skewMs };
    h.onSnapshot(url, body, id, skewMs);
    if (locks) channel?.postMessage(latest);
  };
  const lead = () => readStream(streamUrl, etag, deliver, stop.signal).then((refused) => {
    if (refused && !stop.signal.aborted) h.onFallback();
  });

  if (channel && locks) {
    channel.onmessage = (e: MessageEvent<Relay>) => {
      const m = e.data;
      if (m.url !== url) return;
      if (m.kind === 'snapshot' && !holding) h.onSnapshot(m.url, m.body, m.etag, m.skewMs);
      else if (m.kind === 'want' && holding && latest) channel.postMessage(latest);
    };
    locks
      .request(`${CHANNEL} ${streamUrl}`, { signal: stop.signal }, async () => {
        holding = true;
        await lead();
        holding = false;
      })
      .catch(() => {}); // aborted while waiting for the lock
    // A tab that joins as a follower asks the holder for what it last relayed.
    channel.postMessage({ kind: 'want', url } satisfies Relay);
  } else {
    void lead();
  }
  return () => {
    stop.abort();
    channel?.close();
  };
}

/**
 * Reads the stream, reopening it after it ends or fails, until `signal` aborts. Resolves true
 * when the tab should poll instead: the server answered something other than a stream, or
 * MAX_FAILED_OPENS openings in a row failed.
 */
async function readStream(streamUrl: string, etag: () => string | undefined, deliver: (body: string, id: string, skewMs: number) => void, signal: AbortSignal): Promise<boolean> {
  let failed = 0;
  while (!signal.aborted) {
    try {
      const held = etag();
      const res = await fetch(streamUrl, { signal, cache: 'no-store', headers: held ? { accept: 'text/event-stream', 'last-event-id': held } : { accept: 'text/event-stream' } });
      if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        await res.body?.cancel();
        return true;
      }
      failed = 0;
      const skewMs = Number(res.headers.get('x-now')) - Date.now() || 0;
      await readEvents(res.body, (body, id) => deliver(body, id, skewMs));
    } catch {
      if (signal.aborted) return false;
      if (++failed >= MAX_FAILED_OPENS) return true;
    }
    await new Promise((r) => setTimeout(r, DOWN_PROBE_MS));
  }
  return false;
}

/** Server-sent events from `body`: each event's `data` (lines joined) and `id`; comments skipped. */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (data: string, id: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      let id = '';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) onEvent(data.join('\n'), id);
    }
  }
}
