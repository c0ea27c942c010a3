/**
 * The app server's memory (RSS of the production build served by the launcher):
 *  - idle: 200 queues of 3 tasks, after start-up and one health check, 10 s later;
 *  - ten overview tabs open on those 200 queues (headless Chromium, a context each), polling
 *    at the default interval for 60 s, sampled every 5 s;
 *  - with `--soak-minutes N` (`--soak`: 30), a soak: the demo's workload (scripts/demo: its
 *    task server, scheduler, producers and crashing worker) on top of the 200 queues, the ten
 *    tabs left open, RSS sampled every 15 s; reported as samples and the least-squares slope in
 *    MB per hour over the whole soak and once settled (after its first third, at most 10 min).
 * Targets: ≤ 100 MB idle, ≤ 150 MB with ten tabs, flat (≤ 10 MB/h) over a 30-minute soak once settled.
 */
import { Redis } from 'ioredis';
import type { Browser, BrowserContext } from 'playwright-core';
import { startDemoApp } from '../scripts/demo/app';
import type { BenchCase, BenchContext, CaseResult } from './bench-case';
import { seedScaleQueues } from './scale-seed';
import { listeningPid, peakRssMb, rssMb, slopeMbPerHour } from './server-rss';
import { buildIfStale, launchChromium, startDefaultApp, unpinForChildren } from './ui-app';

const QUEUES = 200;
const TABS = 10;
const IDLE_SETTLE_MS = 10_000;
const TABS_WINDOW_MS = 60_000;
const TABS_EVERY_MS = 5_000;
const SOAK_EVERY_MS = 15_000;
const IDLE_TARGET_MB = 100;
const TABS_TARGET_MB = 150;
/** A soak's slope above this many MB per hour reads as growth, not noise. */
const FLAT_MB_PER_HOUR = 10;
/**
 * The first third of a soak (at most 10 minutes) is the process settling under a new workload:
 * V8 compiles the workload's paths and sizes its old generation, and the bounded caches fill.
 * Growth that goes on after it is a leak; the slope is reported over the whole soak and after it.
 */
const SETTLE_FRACTION = 1 / 3;
const SETTLE_MAX_MINUTES = 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (x: number) => x.toFixed(0);

async function openTabs(browser: Browser, url: string): Promise<BrowserContext[]> {
  const contexts: BrowserContext[] = [];
  for (let i = 0; i < TABS; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    contexts.push(context);
  }
  return contexts;
}

/** RSS every `everyMs` for `forMs`, as minutes since `since` and MB. */
async function sample(pid: number, forMs: number, everyMs: number, since: number, log: (s: string) => void) {
  const out: { minute: number; mb: number }[] = [];
  const end = Date.now() + forMs;
  while (Date.now() < end) {
    await sleep(everyMs);
    out.push({ minute: (Date.now() - since) / 60_000, mb: rssMb(pid) });
    log(`${out.at(-1)!.minute.toFixed(1)} min: ${mb(out.at(-1)!.mb)} MB`);
  }
  return out;
}

export async function runMemory(ctx: BenchContext): Promise<CaseResult> {
  const build = await buildIfStale();
  await ctx.admin.flushall();
  await seedScaleQueues(ctx.admin, QUEUES);
  const cores = unpinForChildren();
  const app = await startDefaultApp(ctx.url);
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];
  const failures: string[] = [];
  const lines: string[] = [];
  try {
    const pid = listeningPid(Number(new URL(app.url).port));
    await sleep(IDLE_SETTLE_MS);
    const idle = rssMb(pid);
    console.log(`  idle: ${mb(idle)} MB`);

    browser = await launchChromium();
    contexts = await openTabs(browser, `${app.url}/`);
    const started = Date.now();
    const tabs = await sample(pid, TABS_WINDOW_MS, TABS_EVERY_MS, started, (s) => console.log(`  ${TABS} tabs, ${s}`));
    const tabsMax = Math.max(...tabs.map((s) => s.mb));
    const tabsLast = tabs.at(-1)!.mb;

    let soak = '';
    if (ctx.soakMinutes) {
      const redis = new Redis(ctx.url, { maxRetriesPerRequest: null });
      const demo = await startDemoApp(redis, ctx.url);
      const soakStart = Date.now();
      try {
        const samples = await sample(pid, ctx.soakMinutes * 60_000, SOAK_EVERY_MS, soakStart, (s) => console.log(`  soak, ${s}`));
        const slope = slopeMbPerHour(samples);
        const settleMinutes = Math.min(SETTLE_MAX_MINUTES, ctx.soakMinutes * SETTLE_FRACTION);
        const settled = samples.filter((s) => s.minute >= settleMinutes);
        const settledSlope = slopeMbPerHour(settled);
        const first = samples[0]!.mb;
        const last = samples.at(-1)!.mb;
        const max = Math.max(...samples.map((s) => s.mb));
        console.log(`  soak: ${mb(first)} → ${mb(last)} MB (max ${mb(max)}), slope ${slope.toFixed(1)} MB/h, after ${settleMinutes.toFixed(0)} min ${settledSlope.toFixed(1)} MB/h; the workload enqueued ${demo.stats.enqueued} tasks`);
        soak = [
          `| Soak, ${ctx.soakMinutes} min, demo workload + ${TABS} tabs | first ${mb(first)} MB, last **${mb(last)} MB**, max ${mb(max)} MB; slope over the whole soak ${slope.toFixed(1)} MB/h (least squares over ${samples.length} samples), **${settledSlope.toFixed(1)} MB/h** once settled (minute ${settleMinutes.toFixed(0)} on, ${settled.length} samples) | flat once settled (≤ ${FLAT_MB_PER_HOUR} MB/h) | ${settledSlope <= FLAT_MB_PER_HOUR ? 'yes' : '**no**'} |`,
          `\n- Soak samples (minutes: MB), every ${SOAK_EVERY_MS / 1000} s: ${samples.map((s) => `${s.minute.toFixed(1)}: ${mb(s.mb)}`).join(', ')}. The workload enqueued ${demo.stats.enqueued} tasks. The first ${settleMinutes.toFixed(0)} minutes are the process settling under the new workload (V8 compiling its paths and sizing its heap, bounded caches filling); growth after them would be a leak.`,
        ].join('\n');
        if (settledSlope > FLAT_MB_PER_HOUR) failures.push(`RSS grew ${settledSlope.toFixed(1)} MB/h after the first ${settleMinutes.toFixed(0)} minutes of a ${ctx.soakMinutes}-minute soak, target flat (≤ ${FLAT_MB_PER_HOUR} MB/h)`);
      } finally {
        await demo.stop();
        redis.disconnect();
      }
    }
    const peak = peakRssMb(pid);
    const load = (await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(', ');
    if (idle > IDLE_TARGET_MB) failures.push(`idle RSS ${mb(idle)} MB, target ≤ ${IDLE_TARGET_MB} MB`);
    if (tabsMax > TABS_TARGET_MB) failures.push(`RSS with ${TABS} tabs ${mb(tabsMax)} MB, target ≤ ${TABS_TARGET_MB} MB`);
    const [table, soakNotes] = soak === '' ? ['', ''] : soak.split('\n\n');
    lines.push(
      '## Memory: RSS idle, with ten overview tabs, over a soak',
      '',
      `- App: ${build}, through the launcher, ${cores.note}, default settings; ${QUEUES} queues of 3 tasks. RSS: VmRSS of the process listening on the app's port. Load average at the end ${load} (2 cores, shared).`,
      `- Tabs: ${TABS} headless Chromium contexts on the overview, polling at the default interval; RSS every ${TABS_EVERY_MS / 1000} s for ${TABS_WINDOW_MS / 1000} s once all were open.`,
      ctx.soakMinutes ? '' : '- Soak: not run (`--soak-minutes N`, or `--soak` for 30).',
      '',
      '| measure | asynqlens | target | met |',
      '|---|---|---|---|',
      `| Idle, ${IDLE_SETTLE_MS / 1000} s after start | **${mb(idle)} MB** | ≤ ${IDLE_TARGET_MB} MB | ${idle <= IDLE_TARGET_MB ? 'yes' : '**no**'} |`,
      `| ${TABS} overview tabs, ${TABS_WINDOW_MS / 1000} s | max **${mb(tabsMax)} MB**, last ${mb(tabsLast)} MB | ≤ ${TABS_TARGET_MB} MB | ${tabsMax <= TABS_TARGET_MB ? 'yes' : '**no**'} |`,
      ...(table ? [table] : []),
      `| Peak (VmHWM) over the case | ${mb(peak)} MB | | |`,
      '',
      `- Tab samples (minutes: MB): ${tabs.map((s) => `${s.minute.toFixed(1)}: ${mb(s.mb)}`).join(', ')}.`,
      ...(soakNotes ? [soakNotes.replace(/^\n/, '')] : []),
      '- Before this work: 289 MB with ten tabs open at 200 queues (asynqmon: 20 MB).',
      '',
    );
  } finally {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close().catch(() => {});
    await app.stop();
    cores.restore();
    await ctx.admin.flushall();
  }
  return { markdown: lines.filter((l, i) => !(l === '' && lines[i - 1] === '')).join('\n'), failures };
}

export const memoryCase: BenchCase = { name: 'memory', run: runMemory };
