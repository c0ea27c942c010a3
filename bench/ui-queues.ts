/**
 * The overview at many queues: N queues of 3 pending tasks each, then what
 * a cold visit to the overview costs at that size: the HTML's bytes (raw and gzipped as
 * `next start` serves it), the server's time to answer it, the live snapshot's bytes, and the
 * browser's time from navigation start to the queue table's first page on screen.
 */
import { gzipSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import type { Browser } from 'playwright-core';
import { percentile } from './measure';
import { seedBatches } from './seed';
import { timeOneLoad } from './ui-load';

export const queueName = (i: number) => `q-${String(i).padStart(5, '0')}`;

/** N queues of 3 pending tasks each (one EVALSHA per queue, server-side). */
export async function seedQueues(admin: Redis, n: number): Promise<void> {
  await admin.flushall();
  await seedBatches(admin, Array.from({ length: n }, (_, i) => ({ queue: queueName(i + 1), state: 'pending' as const, count: 3, idFormat: 'task-%012d' })));
}

export interface ScaleResult {
  queues: number;
  htmlBytes: number;
  htmlGzipBytes: number;
  /** Server time to the whole HTML (fetch from this process), p50 of `runs`. */
  htmlP50Ms: number;
  snapshotBytes: number;
  snapshotGzipBytes: number;
  /** Navigation start → the table's first page on screen, p50 of `runs` fresh contexts. */
  renderP50Ms: number;
  fcpP50Ms: number;
  /** Navigation start → the HTML's first byte in those loads (the server's render, Redis read included). */
  ttfbP50Ms: number;
}

async function timedText(url: string): Promise<{ text: string; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return { text, ms: performance.now() - t0 };
}

/** The overview at `n` seeded queues (the first page shows the first 100 by name). */
export async function measureScale(browser: Browser, appUrl: string, n: number, runs: number): Promise<ScaleResult> {
  const firstPage = Array.from({ length: Math.min(n, 100) }, (_, i) => queueName(i + 1));
  await timedText(`${appUrl}/`); // warm
  const html: { text: string; ms: number }[] = [];
  for (let i = 0; i < runs; i++) html.push(await timedText(`${appUrl}/`));
  const snapshot = (await timedText(`${appUrl}/api/snapshot?table=1`)).text;
  await timeOneLoad(browser, `${appUrl}/`, firstPage); // warm
  const loads = [];
  for (let i = 0; i < runs; i++) loads.push(await timeOneLoad(browser, `${appUrl}/`, firstPage));
  const text = html[html.length - 1]!.text;
  const p50 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
  return {
    queues: n,
    htmlBytes: Buffer.byteLength(text),
    htmlGzipBytes: gzipSync(text, { level: 6 }).length,
    htmlP50Ms: p50(html.map((h) => h.ms)),
    snapshotBytes: Buffer.byteLength(snapshot),
    snapshotGzipBytes: gzipSync(snapshot, { level: 6 }).length,
    renderP50Ms: p50(loads.map((l) => l.renderedMs)),
    fcpP50Ms: p50(loads.map((l) => l.fcpMs)),
    ttfbP50Ms: p50(loads.map((l) => l.ttfbMs)),
  };
}
