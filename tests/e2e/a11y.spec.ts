/**
 * Accessibility: axe-core on every page of app/ (each queue tab too) in the light and the dark
 * theme fails on any serious or critical violation; the skip link is the first Tab stop and
 * lands on the content; `?` lists the shortcuts; the current state tab is in view at 390 px.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import type { Page } from 'playwright-core';
import { TASK_STATES } from '../../lib/url-state';
import type { Ctx, Spec } from './support/harness';

export const phase = 'read';

const appDir = join(import.meta.dirname, '..', '..', 'app');
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The URLs that show each page file of app/ (route groups dropped); a new page must be added here. */
const URLS: Record<string, (taskUrl: string) => string[]> = {
  '/': () => ['/'],
  '/audit': () => ['/audit'],
  '/enqueue': () => ['/enqueue'],
  '/failures': () => ['/failures'],
  '/queues/[qname]': () => [...TASK_STATES.map((s) => `/queues/default?state=${s}`), '/queues/default?tab=locks'],
  '/queues/[qname]/duplicates': () => ['/queues/default/duplicates'],
  '/queues/[qname]/tasks/[taskId]': (taskUrl) => [taskUrl],
  '/redis': () => ['/redis'],
  '/routing': () => ['/routing'],
  '/schedulers': () => ['/schedulers'],
  '/search': () => ['/search', '/search?q=type%3Awebhook%3Adeliver'],
  '/servers': () => ['/servers'],
  '/settings': () => ['/settings'],
  '/uniqueness': () => ['/uniqueness'],
  '/login': () => ['/login'],
};

async function pageRoutes(dir = appDir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'api' && !e.name.startsWith('_')) out.push(...(await pageRoutes(p)));
    else if (e.name === 'page.tsx') {
      const route = relative(appDir, dir).split(sep).filter((s) => s && !/^\(.*\)$/.test(s)).join('/');
      out.push(`/${route}`);
    }
  }
  return out;
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

async function axeCheck(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(() => (window as unknown as { axe: { run: () => Promise<AxeResult> } }).axe.run());
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}${v.nodes.length > 4 ? ` … ${v.nodes.length} in all` : ''}`);
}

/** A context that lets the test inject axe despite the console's CSP. */
async function axePage({ browser, baseUrl }: Ctx, colorScheme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl, colorScheme, viewport: { width: 1440, height: 900 }, bypassCSP: true });
  return context.newPage();
}

async function settle(page: Page) {
  await page.locator('main').waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-skeleton], .animate-pulse'), undefined, { timeout: 15_000 }).catch(() => {});
  await page.waitForTimeout(300);
}

const axeSpec = (colorScheme: 'light' | 'dark'): Spec => ({
  name: `axe: no serious or critical violation on any page (${colorScheme})`,
  timeoutMs: 300_000,
  run: async (ctx) => {
    const routes = await pageRoutes();
    const unlisted = routes.filter((r) => !(r in URLS));
    assert.deepEqual(unlisted, [], 'every page of app/ has URLs to check');
    const page = await axePage(ctx, colorScheme);
    await page.goto('/queues/webhooks?state=retry');
    const first = page.getByRole('table', { name: 'retry tasks' }).locator('tbody tr').first().getByRole('link').first();
    const taskUrl = (await first.getAttribute('href'))!;
    const found: string[] = [];
    for (const route of routes) {
      for (const url of URLS[route]!(taskUrl)) {
        await page.goto(url);
        await settle(page);
        for (const v of await axeCheck(page)) found.push(`${url}: ${v}`);
      }
    }
    assert.deepEqual(found, [], `axe (${colorScheme})`);
  },
});

const specs: Spec[] = [
  axeSpec('light'),
  axeSpec('dark'),
  {
    name: 'the skip link is the first Tab stop and moves the focus to the content',
    run: async ({ newPage }) => {
      const { page } = await newPage();
      await page.goto('/queues/default');
      await page.getByRole('table', { name: 'pending tasks' }).waitFor();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      assert.ok(await skip.evaluate((e) => e === document.activeElement), 'first Tab stop');
      assert.ok(await skip.isVisible(), 'visible when focused');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'content');
      await page.keyboard.press('Tab');
      assert.ok(await page.evaluate(() => !!document.activeElement?.closest('main')), 'the next stop is in the content');
    },
  },
  {
    name: '? opens the list of keyboard shortcuts; Esc closes it',
    run: async ({ newPage }) => {
      const { page } = await newPage();
      await page.goto('/queues/default');
      await page.getByRole('table', { name: 'pending tasks' }).waitFor();
      await page.keyboard.press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await dialog.waitFor();
      const text = await dialog.innerText();
      for (const s of ['Focus the search box', 'Move to the next task', 'Open the task under the cursor', 'Select the task under the cursor', 'Show these shortcuts']) {
        assert.ok(text.includes(s), `lists "${s}"`);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      // Typed into a field, ? is a character.
      await page.getByRole('searchbox', { name: 'Search tasks' }).fill('');
      await page.getByRole('searchbox', { name: 'Search tasks' }).press('?');
      assert.equal(await dialog.count(), 0);
    },
  },
  {
    name: 'at 390 px the current state tab is in view',
    run: async ({ newPage }) => {
      const { page } = await newPage({ width: 390, height: 844 });
      for (const state of ['completed', 'aggregating', 'pending']) {
        await page.goto(`/queues/default?state=${state}`);
        const tab = page.getByRole('navigation', { name: 'Task states' }).locator('[aria-current="page"]');
        await tab.waitFor();
        await page.waitForTimeout(200);
        const box = (await tab.boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= 390, `${state} tab in view: ${box.x}..${box.x + box.width}`);
        assert.match(await tab.innerText(), new RegExp(state, 'i'));
      }
    },
  },
];

export default specs;
