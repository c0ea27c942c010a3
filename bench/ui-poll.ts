/**
 * What open overview tabs cost: every command Redis executed (INFO commandstats, calls summed
 * over all commands, commands run inside scripts included), the app server's CPU time
 * (/proc/<pid>/stat) and the bytes of each poll, while N tabs sat on the overview and polled,
 * each tab in its own browser context so that each is a visible, focused page.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import * as k from '../lib/asynq/keys';
import { QUEUE_TABLE } from './ui-load';

/** Calls per command (`cmdstat_<name>`, subcommands as `config|get`) from INFO commandstats. */
export async function commandCalls(admin: Redis): Promise<Map<string, number>> {
  const info = await admin.info('commandstats');
  const calls = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(m[1]!, Number(m[2]));
  return calls;
}

/**
 * The commands run between two snapshots, less the bench's own: Redis counts a command after it
 * ran, so the second snapshot includes the first's INFO but not itself (one INFO, taken off
 * here; an INFO the app sends stays counted), and `own` holds the other commands the bench sent
 * on the same connection in between.
 */
export function delta(before: Map<string, number>, after: Map<string, number>, own: Record<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [cmd, n] of after) {
    const d = n - (before.get(cmd) ?? 0) - (cmd === 'info' ? 1 : 0) - (own[cmd] ?? 0);
    if (d > 0) out.set(cmd, d);
  }
  return out;
}

/**
 * Keeps the overview's figures changing, as on a Redis with workers: an INCR of today's
 * processed counter of `queue` every `everyMs`. Without it the demo data is static and the poll
 * policy stretches each tab's interval after a minute, at a different moment for each tab.
 * `counted` is how many were sent while `counting` was on (the admin connection runs commands
 * in the order sent, so these are exactly the ones between two INFOs sent on it).
 */
export function liveTicker(admin: Redis, queue: string, everyMs: number) {
  const state = { counting: false, counted: 0 };
  const tick = () => {
    if (state.counting) state.counted++;
    void admin.incr(k.processedKey(queue, new Date())).catch(() => {});
  };
  const timer = setInterval(tick, everyMs);
  return { state, stop: () => clearInterval(timer) };
}

/** The process listening on `url`'s port (the app server, not the launcher that spawned it). */
export function listeningPid(url: string): number {
  const port = new URL(url).port;
  const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(out)?.[1];
  if (!pid) throw new Error(`no process found listening on port ${port}: ${out}`);
  return Number(pid);
}

/** CPU time (user + system, every thread) the process has used, in ms: /proc/<pid>/stat, 10 ms ticks. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 (utime, stime) of proc(5), counted from the state (field 3) here.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** One poll of the live snapshot: when, its status, and the bytes on the wire both ways (headers included). */
interface SnapshotPoll {
  at: number;
  status: number;
  bytes: number;
}

const headerBytes = (hs: { name: string; value: string }[]) => hs.reduce((n, h) => n + h.name.length + h.value.length + 4, 0);

/**
 * A poll's bytes on the wire as HTTP/1.1 sends them: request line and headers, status line,
 * headers and body (Chromium's own sizes() is not reported for every 304).
 */
async function wireBytes(r: Request): Promise<{ status: number; bytes: number }> {
  const res = await r.response();
  if (!res) throw new Error('no response');
  const path = new URL(r.url());
  const body = res.status() === 304 ? 0 : (await res.body()).length;
  const bytes = `GET ${path.pathname}${path.search} HTTP/1.1\r\n`.length + headerBytes(await r.headersArray()) + 2 +
    `HTTP/1.1 ${res.status()} ${res.statusText()}\r\n`.length + headerBytes(await res.headersArray()) + 2 + body;
  return { status: res.status(), bytes };
}

interface Tab {
  context: BrowserContext;
  page: Page;
  /**
   * Request start times (ms since the epoch) of the page's polls (GETs of /api/snapshot; an RSC
   * refresh, `RSC: 1`, for a build that still re-renders the overview), and of every request.
   */
  refreshes: number[];
  requests: number[];
  snapshots: SnapshotPoll[];
  /** Streams of /api/snapshot/stream the page opened and that are still open. */
  streamsOpen: number;
  /** Page errors and failed requests (a tab whose scripts failed never hydrates, so never polls). */
  problems: string[];
}

async function openTab(browser: Browser, url: string): Promise<Tab> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const tab: Tab = { context, page, refreshes: [], requests: [], snapshots: [], streamsOpen: 0, problems: [] };
  page.on('request', (r) => {
    const now = Date.now();
    tab.requests.push(now);
    if (r.method() === 'GET' && (r.headers()['rsc'] === '1' || new URL(r.url()).pathname === '/api/snapshot')) tab.refreshes.push(now);
    if (new URL(r.url()).pathname === '/api/snapshot/stream') {
      tab.streamsOpen++;
      const ended = () => void tab.streamsOpen--;
      r.response().then((res) => res?.finished()).then(ended, ended);
    }
  });
  page.on('response', (res) => {
    const r = res.request();
    if (new URL(r.url()).pathname !== '/api/snapshot') return;
    const at = Date.now();
    void wireBytes(r).then(
      ({ status, bytes }) => tab.snapshots.push({ at, status, bytes }),
      (err: unknown) => tab.problems.push(`sizes of ${r.url()}: ${String(err)}`),
    );
  });
  page.on('pageerror', (e) => tab.problems.push(`page error: ${e.message.split('\n')[0]}`));
  // Next's router cancels an RSC response's stream once it has read it: Chromium reports those
  // as ERR_ABORTED after their response, which is not a failure.
  const answered = new WeakSet<object>();
  page.on('response', (r) => {
    answered.add(r.request());
    if (r.status() >= 400) tab.problems.push(`${r.request().method()} ${new URL(r.url()).pathname}: ${r.status()}`);
  });
  page.on('requestfailed', (r) => {
    const error = r.failure()?.errorText ?? '?';
    if (error === 'net::ERR_ABORTED' && answered.has(r)) return;
    tab.problems.push(`${r.method()} ${new URL(r.url()).pathname} failed: ${error}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.locator(`${QUEUE_TABLE} tbody tr`).first().waitFor({ timeout: 30_000 });
  return tab;
}

export interface PollResult {
  tabs: number;
  windowMs: number;
  /** Every command in the window (bench's INFO taken off). */
  commands: number;
  perMinute: number;
  byCommand: [string, number][];
  /** Per tab, in the window: polls and all requests. */
  refreshesPerTab: number[];
  requestsPerTab: number[];
  /** document.visibilityState / hasFocus() of each tab at the window's start. */
  visibility: string[];
  /** Per tab: its first refresh in the window, ms after the window's start, modulo the poll interval. */
  phasesMs: number[];
  /** What went wrong in the tabs (page errors, failed or ≥ 400 requests), "tab i: …". */
  problems: string[];
  /** From opening the first tab to the window's start. */
  openSpanMs: number;
  /** The app server's CPU time in the window (ms), when its pid was given. */
  serverCpuMs: number | null;
  /** Tabs holding an open /api/snapshot/stream at the window's end (they need not poll). */
  streamingTabs: number;
  /** Polls of /api/snapshot in the window: changed (200) and unchanged (304), with their mean bytes on the wire. */
  changed: { count: number; meanBytes: number };
  unchanged: { count: number; meanBytes: number };
  /** The bench's INCRs in the window (taken off `commands`). */
  liveTicks: number;
}

const inWindow = (times: number[], from: number, to: number) => times.filter((t) => t >= from && t < to).length;

export interface PollOptions {
  tabs: number;
  /** Tab i is opened, and later re-phased, at i × staggerMs. */
  staggerMs: number;
  windowMs: number;
  /** The queue whose processed counter ticks, and how often (see liveTicker). */
  liveQueue: string;
  liveEveryMs: number;
  /** The poll interval, to report each tab's phase in it. */
  pollMs: number;
  /** The app server's pid: its CPU time over the window is reported. */
  serverPid?: number;
}

const meanBytes = (polls: SnapshotPoll[]) => ({ count: polls.length, meanBytes: polls.length ? polls.reduce((n, p) => n + p.bytes, 0) / polls.length : 0 });

/**
 * Opens `tabs` overview tabs, tab i at i × `staggerMs` after the first, and waits until all show
 * the queue table. Where in the poll interval a tab refreshes is set by when it hydrated, which
 * on a busy machine bunches up by chance; so each tab then gets the `visibilitychange` a browser
 * sends when the user switches back to it, again at i × `staggerMs`: the poller reads at
 * once and restarts its timer, so the tabs' phases are spread evenly over the interval, like
 * tabs opened at independent moments, the same in every run. Then Redis commands are counted
 * over `windowMs`.
 */
export async function measurePolling(browser: Browser, url: string, admin: Redis, opts: PollOptions): Promise<PollResult> {
  const { tabs, staggerMs, windowMs } = opts;
  const ticker = liveTicker(admin, opts.liveQueue, opts.liveEveryMs);
  const t0 = Date.now();
  const opened = await Promise.allSettled(
    Array.from({ length: tabs }, async (_, i) => {
      await new Promise((r) => setTimeout(r, t0 + i * staggerMs - Date.now()));
      return openTab(browser, url);
    }),
  );
  const open = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  try {
    const failed = opened.find((o) => o.status === 'rejected');
    if (failed) throw new Error(`${tabs - open.length} of ${tabs} tabs did not show the overview: ${String(failed.reason)}`);
    const visibility = await Promise.all(open.map((t) => t.page.evaluate(() => `${document.visibilityState}${document.hasFocus() ? '+focused' : ''}`)));
    const t1 = Date.now() + 500;
    await Promise.all(
      open.map(async (t, i) => {
        await new Promise((r) => setTimeout(r, t1 + i * staggerMs - Date.now()));
        await t.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      }),
    );
    // Let the re-phasing refreshes finish before counting.
    await new Promise((r) => setTimeout(r, 1500));
    const beforeP = commandCalls(admin);
    ticker.state.counting = true;
    const before = await beforeP;
    const cpu0 = opts.serverPid ? cpuMs(opts.serverPid) : 0;
    const from = Date.now();
    await new Promise((r) => setTimeout(r, windowMs));
    ticker.state.counting = false;
    const cpu1 = opts.serverPid ? cpuMs(opts.serverPid) : 0;
    const after = await commandCalls(admin);
    const to = Date.now();
    // The last polls' sizes arrive a moment after their responses.
    await new Promise((r) => setTimeout(r, 300));
    const polls = open.flatMap((t) => t.snapshots.filter((p) => p.at >= from && p.at < to));
    const d = delta(before, after, { incr: ticker.state.counted });
    const commands = [...d.values()].reduce((a, b) => a + b, 0);
    return {
      tabs,
      windowMs: to - from,
      commands,
      perMinute: (commands * 60_000) / (to - from),
      byCommand: [...d.entries()].sort((a, b) => b[1] - a[1]),
      refreshesPerTab: open.map((t) => inWindow(t.refreshes, from, to)),
      phasesMs: open.map((t) => {
        const first = t.refreshes.find((x) => x >= from);
        return first === undefined ? NaN : (first - from) % opts.pollMs;
      }),
      requestsPerTab: open.map((t) => inWindow(t.requests, from, to)),
      visibility,
      openSpanMs: from - t0,
      liveTicks: ticker.state.counted,
      serverCpuMs: opts.serverPid ? cpu1 - cpu0 : null,
      streamingTabs: open.filter((t) => t.streamsOpen > 0).length,
      changed: meanBytes(polls.filter((p) => p.status === 200)),
      unchanged: meanBytes(polls.filter((p) => p.status === 304)),
      problems: open.flatMap((t, i) => t.problems.map((p) => `tab ${i + 1}: ${p}`)),
    };
  } finally {
    ticker.stop();
    await Promise.all(open.map((t) => t.context.close().catch(() => {})));
  }
}
