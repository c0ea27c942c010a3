/**
 * asynqmon's first paint with data, for the UI bench's comparison: asynqmon v0.7.2 (its Go
 * server with the React UI it embeds) on the bench's Redis and data, timed like our overview
 * (ui-load.ts: navigation start → its queue table on screen with a row for every queue, fresh
 * contexts, warm server). Runs only when ASYNQMON_BIN names a binary, e.g. built with
 * `GOPATH=$(mktemp -d) go install github.com/hibiken/asynqmon/cmd/asynqmon@v0.7.2`.
 */
import { spawn } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { freePort } from '../tests/e2e/support/app-server';
import { percentile } from './measure';
import { timeOneLoad, type LoadTiming } from './ui-load';

export interface AsynqmonLoads {
  samples: LoadTiming[];
  p50Ms: number;
  fcpP50Ms: number;
}

/** asynqmon's dashboard at `/`, timed `runs` times after `warmups`; null without ASYNQMON_BIN. */
export async function measureAsynqmon(browser: Browser, redisUrl: string, queues: string[], warmups: number, runs: number): Promise<AsynqmonLoads | null> {
  const bin = process.env.ASYNQMON_BIN;
  if (!bin) return null;
  const port = await freePort();
  const child = spawn(bin, ['--port', String(port), '--redis-url', redisUrl], { stdio: 'ignore' });
  try {
    const url = `http://127.0.0.1:${port}/`;
    const deadline = Date.now() + 20_000;
    while (!(await fetch(url).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`asynqmon did not answer on ${url}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    for (let i = 0; i < warmups; i++) await timeOneLoad(browser, url, queues, 'table');
    const samples: LoadTiming[] = [];
    for (let i = 0; i < runs; i++) samples.push(await timeOneLoad(browser, url, queues, 'table'));
    const sorted = (f: (t: LoadTiming) => number) => samples.map(f).sort((a, b) => a - b);
    return { samples, p50Ms: percentile(sorted((t) => t.renderedMs), 50), fcpP50Ms: percentile(sorted((t) => t.fcpMs), 50) };
  } finally {
    child.kill('SIGTERM');
  }
}
