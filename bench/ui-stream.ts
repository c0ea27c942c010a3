/**
 * A hundred viewers of the overview as the server meets them: `viewers` HTTP clients, each on its
 * own connection (as a hundred users' browsers would be; one browser's tabs share one stream),
 * holding GET /api/snapshot/stream open. A hundred real browser tabs do not fit on the bench
 * machine; to the server these streams are theirs, so its CPU time and Redis commands are too.
 */
import http from 'node:http';
import type { Redis } from 'ioredis';
import { commandCalls, cpuMs, delta, liveTicker, type PollResult } from './ui-poll';

interface Viewer {
  /** Events received in the window, with their bytes, and every byte received in it. */
  events: { at: number; bytes: number }[];
  /** Bytes that were not events (heartbeats, the opening comment), with when they came. */
  other: { at: number; bytes: number }[];
  headerBytes: number;
  status: number;
  req: http.ClientRequest;
}

function hold(url: string): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      const v: Viewer = { events: [], other: [], headerBytes: res.rawHeaders.reduce((n, h) => n + h.length + 2, 0), status: res.statusCode ?? 0, req };
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end + 2);
          buffered = buffered.slice(end + 2);
          (block.startsWith('id: ') ? v.events : v.other).push({ at: Date.now(), bytes: Buffer.byteLength(block) });
        }
      });
      res.on('error', () => {});
      resolve(v);
    });
    req.on('error', reject);
  });
}

const sum = (xs: { bytes: number }[]) => xs.reduce((n, x) => n + x.bytes, 0);

export async function measureStreamViewers(
  appUrl: string,
  path: string,
  admin: Redis,
  opts: { viewers: number; windowMs: number; pollMs: number; serverPid: number; liveQueue: string; liveEveryMs: number },
): Promise<PollResult> {
  const ticker = liveTicker(admin, opts.liveQueue, opts.liveEveryMs);
  const viewers = await Promise.all(Array.from({ length: opts.viewers }, () => hold(`${appUrl}${path}`)));
  try {
    const refused = viewers.filter((v) => v.status !== 200).length;
    if (refused > 0) throw new Error(`${refused} of ${opts.viewers} streams were refused`);
    await new Promise((r) => setTimeout(r, 2 * opts.pollMs));
    const before = await commandCalls(admin);
    ticker.state.counting = true;
    const cpu0 = cpuMs(opts.serverPid);
    const from = Date.now();
    await new Promise((r) => setTimeout(r, opts.windowMs));
    ticker.state.counting = false;
    const cpu1 = cpuMs(opts.serverPid);
    const after = await commandCalls(admin);
    const to = Date.now();
    const d = delta(before, after, { incr: ticker.state.counted });
    const commands = [...d.values()].reduce((a, b) => a + b, 0);
    const inside = <T extends { at: number }>(xs: T[]) => xs.filter((x) => x.at >= from && x.at < to);
    const events = viewers.flatMap((v) => inside(v.events));
    const other = viewers.flatMap((v) => inside(v.other));
    // Ticks each viewer's stream had in the window; those without an event are unchanged ones.
    const ticks = Math.floor((to - from) / opts.pollMs);
    const unchanged = viewers.reduce((n, v) => n + Math.max(0, ticks - inside(v.events).length), 0);
    return {
      tabs: opts.viewers,
      windowMs: to - from,
      commands,
      perMinute: (commands * 60_000) / (to - from),
      byCommand: [...d.entries()].sort((a, b) => b[1] - a[1]),
      refreshesPerTab: viewers.map((v) => inside(v.events).length),
      requestsPerTab: viewers.map(() => 0),
      visibility: ['stream subscriber'],
      phasesMs: [],
      problems: [],
      openSpanMs: 0,
      liveTicks: ticker.state.counted,
      serverCpuMs: cpu1 - cpu0,
      streamingTabs: viewers.length,
      changed: { count: events.length, meanBytes: events.length ? sum(events) / events.length : 0 },
      // What an unchanged tick cost a viewer: the heartbeats in the window spread over those ticks.
      unchanged: { count: unchanged, meanBytes: unchanged ? sum(other) / unchanged : 0 },
    };
  } finally {
    ticker.stop();
    for (const v of viewers) v.req.destroy();
  }
}
