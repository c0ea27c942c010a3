/**
 * The overview's cold-visit cost in headless Chromium: the JavaScript it loads (gzip, via
 * tests/e2e/support/measure-page.ts) and the time from navigation start until the queue table
 * is on screen with the demo's queues in it, over fresh browser contexts (empty cache each).
 */
import type { Browser } from 'playwright-core';
import { measurePage, type PageCost } from '../tests/e2e/support/measure-page';
import { percentile } from './measure';

export const QUEUE_TABLE = 'table[aria-label="Queues"]';

/**
 * Installed before any of the page's own scripts: checks every animation frame whether the queue
 * table is in the page (visible, with a body row linking each of `queues`) and keeps the first
 * such frame's performance.now(), which counts from the navigation's start. A frame's rAF
 * callbacks run just before it is painted and shown; the time reported is the later of this and
 * the first contentful paint (see timeOneLoad).
 */
function renderProbe(table: string, queues: string[]): string {
  // A string, not a function: tsx's keepNames would wrap inner functions in a `__name` helper
  // that does not exist in the page.
  return `(() => {
    const table = ${JSON.stringify(table)}, queues = ${JSON.stringify(queues)};
    const ready = () => {
      const t = document.querySelector(table);
      if (!t || !t.checkVisibility()) return false;
      const names = [...t.querySelectorAll('tbody tr a, tbody tr td:first-child, tbody tr th:first-child')].map((a) => (a.textContent || '').trim());
      return queues.every((q) => names.includes(q));
    };
    const tick = () => {
      if (ready()) window.__overviewRenderedAt = performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })();`;
}

export interface LoadTiming {
  renderedMs: number;
  /** Navigation start → first byte of the HTML. */
  ttfbMs: number;
  fcpMs: number;
}

/** One load of `url` in a fresh context: navigation start → the queue table shown with data. */
export async function timeOneLoad(browser: Browser, url: string, queues: string[], table = QUEUE_TABLE): Promise<LoadTiming> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    await context.addInitScript({ content: renderProbe(table, queues) });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { __overviewRenderedAt?: number }).__overviewRenderedAt !== undefined && performance.getEntriesByName('first-contentful-paint').length > 0,
      null,
      { timeout: 15_000 },
    );
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      return {
        frameMs: (window as unknown as { __overviewRenderedAt: number }).__overviewRenderedAt,
        ttfbMs: nav?.responseStart ?? -1,
        fcpMs: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
      };
    });
    // A frame reaches the screen after its rAF callbacks ran, and the first contentful paint is
    // when the first frame with content was on screen: a table in the page at an earlier rAF
    // appears then.
    return { renderedMs: Math.max(t.frameMs, t.fcpMs), ttfbMs: t.ttfbMs, fcpMs: t.fcpMs };
  } finally {
    await context.close();
  }
}

export interface LoadResult {
  js: PageCost;
  warmups: number;
  samples: LoadTiming[];
  p50Ms: number;
  p95Ms: number;
  ttfbP50Ms: number;
  fcpP50Ms: number;
}

export async function measureLoads(browser: Browser, url: string, queues: string[], warmups: number, runs: number): Promise<LoadResult> {
  for (let i = 0; i < warmups; i++) await timeOneLoad(browser, url, queues);
  const jsContext = await browser.newContext();
  const js = await measurePage(jsContext, url, QUEUE_TABLE).finally(() => jsContext.close());
  const samples: LoadTiming[] = [];
  for (let i = 0; i < runs; i++) samples.push(await timeOneLoad(browser, url, queues));
  const sorted = (f: (t: LoadTiming) => number) => samples.map(f).sort((a, b) => a - b);
  const rendered = sorted((t) => t.renderedMs);
  return {
    js,
    warmups,
    samples,
    p50Ms: percentile(rendered, 50),
    p95Ms: percentile(rendered, 95),
    ttfbP50Ms: percentile(sorted((t) => t.ttfbMs), 50),
    fcpP50Ms: percentile(sorted((t) => t.fcpMs), 50),
  };
}
