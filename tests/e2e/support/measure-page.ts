/**
 * What a cold visit to a page costs the browser: every script it loads (gzip-compressed here,
 * level 6 as `next start` serves them) and when its content first paints. Used by the budget
 * spec; the bench can import it too.
 */
import { gzipSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';

export interface PageCost {
  scripts: { url: string; gzipBytes: number }[];
  jsGzipBytes: number;
  firstContentfulPaintMs: number;
}

/** Loads `url` in a fresh page of `context` and waits until the network is idle. */
export async function measurePage(context: BrowserContext, url: string, readySelector: string): Promise<PageCost> {
  const page = await context.newPage();
  const bodies: Promise<{ url: string; gzipBytes: number }>[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') {
      bodies.push(r.body().then((b) => ({ url: new URL(r.url()).pathname, gzipBytes: gzipSync(b).length })));
    }
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.locator(readySelector).first().waitFor();
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1);
  const scripts = await Promise.all(bodies);
  await page.close();
  return { scripts, jsGzipBytes: scripts.reduce((n, s) => n + s.gzipBytes, 0), firstContentfulPaintMs: Math.round(fcp) };
}
