/**
 * GET /api/snapshot/stream: one broadcaster per view, the same bytes to every subscriber, nothing
 * on a tick that changed nothing, no resend to a reconnect that names the current ETag, gone when
 * the client aborts, and bounded (subscribers, views, bytes a subscriber leaves unread).
 */
import { describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { createLiveStreams, liveStreams } from '@/lib/server/cache/live-stream';
import { SHELL_VIEW } from '@/lib/server/cache/live-snapshot';
import { useConsoleRoutes } from '../../support/console-routes';

const DB = 56;
const { redis, routes } = await useConsoleRoutes(DB, {
  env: { ASYNQLENS_SNAPSHOT_MS: '0', ASYNQLENS_STREAM_MAX_SUBSCRIBERS: '3', ASYNQLENS_STREAM_MAX_VIEWS: '2' },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An open stream: every byte it received, in order, and how to end it. */
async function open(query = '', headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await routes.snapshotStream.GET(new Request(`http://localhost/api/snapshot/stream?every=1000${query}`, { headers, signal: abort.signal }), {
    params: Promise.resolve({}),
  });
  const got = { text: '', status: res.status, res };
  if (res.ok) {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        got.text += decoder.decode(value);
      }
    })();
  }
  return { got, close: () => abort.abort() };
}

const events = (text: string) => text.split('\n\n').filter((e) => e.startsWith('id: '));
async function until(test: () => boolean, ms = 4000): Promise<void> {
  for (const end = Date.now() + ms; !test(); await sleep(20)) if (Date.now() > end) throw new Error('timed out');
}

describe('the live snapshot stream', () => {
  it('sends two subscribers identical bytes, then nothing while nothing changes', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const a = await open('&table=1');
    const b = await open('&table=1');
    expect(a.got.res.headers.get('content-type')).toContain('text/event-stream');
    await until(() => events(a.got.text).length === 1 && events(b.got.text).length === 1);
    expect(a.got.text).toBe(b.got.text);
    const [first] = events(a.got.text);
    const data = JSON.parse(first!.split('\ndata: ')[1]!);
    expect(data.totals.pending).toBe(1);
    expect(data.table.rows[0].queue).toBe('q');

    // Two and a half ticks with nothing changed: not a byte (the heartbeat is 25 s away).
    const before = a.got.text.length;
    await sleep(2500);
    expect(a.got.text.length).toBe(before);

    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    await until(() => events(a.got.text).length === 2 && events(b.got.text).length === 2);
    expect(a.got.text).toBe(b.got.text);
    expect(events(a.got.text)[1]).toContain('"pending":2');
    expect(liveStreams().size()).toEqual({ views: 1, subscribers: 2 });

    // A reconnect holding the current ETag gets nothing but the opening comment.
    const etag = /^id: (.*)$/m.exec(events(a.got.text)[1]!)![1]!;
    const again = await open('&table=1', { 'last-event-id': etag });
    await sleep(1500);
    expect(again.got.text).toBe(':\n\n');

    a.close();
    b.close();
    again.close();
    await until(() => liveStreams().size().subscribers === 0);
    expect(liveStreams().size()).toEqual({ views: 0, subscribers: 0 });
  });

  it('refuses a stream past the subscriber and view limits with 503 stream_limit', async () => {
    const one = await open();
    const two = await open('&table=1');
    const thirdView = await open('&table=1&page=2');
    expect(thirdView.got.status).toBe(503);
    expect(JSON.parse(await thirdView.got.res.text()).error.code).toBe('stream_limit');
    const three = await open();
    const four = await open();
    expect(four.got.status).toBe(503);
    expect(JSON.parse(await four.got.res.text()).error.message).toContain('3 live streams');
    expect(liveStreams().size()).toEqual({ views: 2, subscribers: 3 });
    one.close();
    await until(() => liveStreams().size().subscribers === 2);
    const five = await open();
    expect(five.got.status).toBe(200);
    for (const s of [two, three, five]) s.close();
    await until(() => liveStreams().size().views === 0);
  });

  it('drops a subscriber that stops reading instead of buffering for it', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const streams = createLiveStreams(() => ({ maxSubscribers: 10, maxViews: 10, maxBufferedBytes: 64, heartbeatMs: 60_000 }));
    const reading = streams.subscribe(SHELL_VIEW, 1000, null, new AbortController().signal);
    const reader = reading.getReader();
    let received = '';
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        received += new TextDecoder().decode(value);
      }
    })();
    const stuck = streams.subscribe(SHELL_VIEW, 1000, null, new AbortController().signal);
    await until(() => events(received).length === 1);
    expect(streams.size().subscribers).toBe(1);
    await expect(stuck.getReader().read()).rejects.toThrow('not reading');
    await reader.cancel();
    expect(streams.size()).toEqual({ views: 0, subscribers: 0 });
  });
});
