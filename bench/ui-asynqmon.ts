/**
 * asynqmon's first paint with data, for the UI bench's comparison: asynqmon v0.7.2 (its Go
 * server with the React UI it embeds) on the bench's Redis and data, timed like our overview
 * (ui-load.ts: navigation start → its queue table on screen with a row for every queue, fresh
 * contexts, warm server). Runs only when ASYNQMON_BIN names a binary, e.g. built with
 * `GOPATH=$(mktemp -d) go install github.com/hibiken/asynqmon/cmd/asynqmon@v0.7.2`.
 *
 * The two apps' loads alternate, ours then asynqmon's in one round, asynqmon's then ours in the next: on a machine shared with
 * other work the load average moves by several times within a minute (10 to 45 on 2 cores was
 * seen), and twenty loads of one app followed by twenty of the other compared two different
 * machines (the same build measured 0.46× to 0.74× that way).
 */
import { spawn } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { freePort } from '../tests/e2e/support/app-server';
import { percentile } from './measure';
import { timeOneLoad, type LoadTiming } from './ui-load';

export interface AsynqmonLoads {
  /** asynqmon's loads, and ours, round by round (in even rounds ours ran first, in odd ones second). */
  samples: LoadTiming[];
  ours: LoadTiming[];
  p50Ms: number;
  fcpP50Ms: number;
  oursP50Ms: number;
  /** The median over rounds of ours / asynqmon's. */
  roundRatioP50: number;
}

const p50 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

/**
 * asynqmon's dashboard at `/` and our overview at `oursUrl`, `runs` rounds after `warmups` of
 * each; null without ASYNQMON_BIN.
 */
export async function measureAsynqmon(browser: Browser, redisUrl: string, oursUrl: string, queues: string[], warmups: number, runs: number): Promise<AsynqmonLoads | null> {
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
    const ours: LoadTiming[] = [];
    // The order flips every round: the second load of a round was seen to run about 20 % faster
    // than the first (Chromium's processes and caches warm for it), so a fixed order favours
    // whichever app goes second.
    for (let i = 0; i < runs; i++) {
      if (i % 2 === 0) {
        ours.push(await timeOneLoad(browser, oursUrl, queues));
        samples.push(await timeOneLoad(browser, url, queues, 'table'));
      } else {
        samples.push(await timeOneLoad(browser, url, queues, 'table'));
        ours.push(await timeOneLoad(browser, oursUrl, queues));
      }
    }
    return {
      samples,
      ours,
      p50Ms: p50(samples.map((t) => t.renderedMs)),
      fcpP50Ms: p50(samples.map((t) => t.fcpMs)),
      oursP50Ms: p50(ours.map((t) => t.renderedMs)),
      roundRatioP50: p50(ours.map((t, i) => t.renderedMs / samples[i]!.renderedMs)),
    };
  } finally {
    child.kill('SIGTERM');
  }
}
