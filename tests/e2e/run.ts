/**
 * End-to-end suite: a private Redis with the demo data plus the suite's own (support/
 * seed-extra.ts), the production build on a free port, and the distribution's Chromium driven
 * by playwright-core. Runs every `*.spec.ts` here (read specs, then write, then disruptive),
 * parses every API response the browser sees against lib/contract (support/contract-check.ts),
 * prints one line per spec and, last, `N passed, N failed`; exits non-zero on any failure.
 *
 *   npx tsx tests/e2e/run.ts [name-filter]
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { chromium, type Browser, type Page } from 'playwright-core';
import { seedSampleData } from '../../scripts/demo/sample-data';
import { startRedisServer, type RunningRedis } from '../../scripts/support/redis-server';
import { startApp, type AppServer } from './support/app-server';
import type { Ctx, Phase, Spec, SpecModule, TestPage } from './support/harness';
import { watchContract } from './support/contract-check';
import { seedExtra, type Seeded } from './support/seed-extra';

const here = import.meta.dirname;
const screenshots = join(here, '..', '..', 'docs', 'screenshots');
const SPEC_TIMEOUT_MS = 90_000;
const PHASES: Phase[] = ['read', 'write', 'disruptive'];

async function seedAll(redis: Redis): Promise<Seeded> {
  await redis.flushdb();
  await seedSampleData(redis);
  return seedExtra(redis);
}

async function loadSpecs(filter: string | undefined): Promise<{ file: string; phase: Phase; spec: Spec }[]> {
  const files = (await readdir(here)).filter((f) => f.endsWith('.spec.ts')).sort();
  const all: { file: string; phase: Phase; spec: Spec }[] = [];
  for (const file of files) {
    const mod = (await import(join(here, file))) as SpecModule;
    for (const spec of mod.default) {
      if (!filter || `${file} ${spec.name}`.includes(filter)) all.push({ file, phase: mod.phase, spec });
    }
  }
  return all.sort((a, b) => PHASES.indexOf(a.phase) - PHASES.indexOf(b.phase));
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`spec timed out after ${ms} ms`)), ms))]);
}

async function main(): Promise<number> {
  const filter = process.argv[2];
  let redisServer: RunningRedis = await startRedisServer({ label: 'e2e' });
  const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 3 });
  redis.on('error', () => {});
  let app: AppServer | undefined;
  let browser: Browser | undefined;
  let passed = 0;
  let failed = 0;
  const pages: TestPage[] = [];
  try {
    const seeded = await seedAll(redis);
    app = await startApp(redisServer.url);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_BIN ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    await mkdir(screenshots, { recursive: true });
    const ctx: Ctx = {
      baseUrl: app.url,
      redis,
      seeded,
      browser,
      newPage: async (opts = {}) => {
        const context = await browser!.newContext({
          baseURL: opts.baseUrl ?? app!.url,
          colorScheme: opts.colorScheme ?? 'light',
          viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 },
        });
        const page = await context.newPage();
        const tp: TestPage = { page, context, dialogs: [], errors: [], contract: [] };
        pages.push(tp);
        watchContract(page, tp.contract);
        page.on('dialog', (d) => {
          tp.dialogs.push(`${d.type()}: ${d.message()}`);
          void d.dismiss();
        });
        page.on('pageerror', (e) => tp.errors.push(e.message));
        return tp;
      },
      startApp: (env) => startApp(redisServer.url, env),
      stopRedis: () => redisServer.stop(),
      restartRedis: async () => {
        redisServer = await startRedisServer({ label: 'e2e', port: redisServer.port });
        Object.assign(seeded, await seedAll(redis));
      },
      screenshot: async (page: Page, name: string, opts = {}) => {
        await page.mouse.move(0, 0);
        await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: opts.fullPage ?? false });
      },
    };
    const specs = await loadSpecs(filter);
    console.log(`e2e: ${specs.length} specs against ${app.url} (Redis ${redisServer.url})\n`);
    for (const { file, phase, spec } of specs) {
      const started = Date.now();
      pages.length = 0;
      try {
        await withTimeout(spec.run(ctx), spec.timeoutMs ?? SPEC_TIMEOUT_MS);
        await new Promise((r) => setTimeout(r, 50)); // let the last responses' checks finish
        const drift = pages.flatMap((p) => p.contract);
        if (drift.length > 0) throw new Error(`API responses that break lib/contract:\n${drift.join('\n')}`);
        passed++;
        console.log(`  ✓ ${file.replace('.spec.ts', '')} › ${spec.name} (${Date.now() - started} ms)`);
      } catch (err) {
        failed++;
        console.log(`  ✗ ${file.replace('.spec.ts', '')} › ${spec.name} [${phase}]\n      ${String(err instanceof Error ? (err.stack ?? err.message) : err).split('\n').slice(0, 8).join('\n      ')}`);
      }
      for (const c of browser.contexts()) await c.close().catch(() => {});
    }
  } catch (err) {
    failed++;
    console.error('e2e setup failed:', err);
  } finally {
    await browser?.close().catch(() => {});
    await app?.stop().catch(() => {});
    redis.disconnect();
    await redisServer.stop().catch(() => {});
  }
  console.log(`\n${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

process.exit(await main());
