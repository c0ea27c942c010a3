/**
 * The tiny spec runner's vocabulary. A spec module default-exports a list of specs and names
 * its phase: read specs run first, then write specs (they change Redis), then disruptive ones
 * (they stop Redis). Each spec gets a fresh browser context, so localStorage never leaks.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Redis } from 'ioredis';
import type { AppServer } from './app-server';
import type { Seeded } from './seed-extra';

export type Phase = 'read' | 'write' | 'disruptive';

export interface Ctx {
  baseUrl: string;
  redis: Redis;
  seeded: Seeded;
  browser: Browser;
  /** A page in a fresh context; every `alert()` and page error is recorded on it. */
  newPage: (opts?: { colorScheme?: 'light' | 'dark'; width?: number; height?: number; baseUrl?: string }) => Promise<TestPage>;
  /** A second `next start` on the same Redis with extra env (e.g. ASYNQLENS_READ_ONLY); the spec stops it. */
  startApp: (env: Record<string, string>) => Promise<AppServer>;
  /** Stops Redis (same port kept for the restart). */
  stopRedis: () => Promise<void>;
  /** Starts Redis again on the same port and re-seeds everything. */
  restartRedis: () => Promise<void>;
  /** Saves docs/screenshots/<name>.png (the viewport, or the whole page). */
  screenshot: (page: Page, name: string, opts?: { fullPage?: boolean }) => Promise<void>;
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  dialogs: string[];
  errors: string[];
  /** API responses that did not match lib/contract (support/contract-check.ts). */
  contract: string[];
}

export interface Spec {
  name: string;
  run: (ctx: Ctx) => Promise<void>;
  /** Longer than the runner's 90 s, for a spec that waits on real servers (Go) to do their work. */
  timeoutMs?: number;
}

export interface SpecModule {
  phase: Phase;
  default: Spec[];
}

/** Polls `check` until it returns true or `timeoutMs` passes; then throws with `what`. */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
