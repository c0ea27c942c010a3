/**
 * Three everyday jobs walked by mouse and by keyboard, counting what each costs: clicks (a field
 * filled counts one click) and key presses (Tab, Enter, Space; the text typed is not counted).
 * The counts are printed for the record and bounded, so a change that buries the task table
 * behind more Tab stops fails here. Read-only: the last press of a job that writes (Enqueue, the
 * re-run's confirmation) is counted but not made, so the other specs keep their seeded data.
 */
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { paths } from '../../lib/paths';
import { fillTask } from './support/enqueue-form';
import type { Spec } from './support/harness';
import { NOT_FOUND_TYPE } from './support/seed-triage';

export const phase = 'read';

/** Presses Tab until `target` has the focus; returns the presses. */
export async function tabTo(page: Page, target: Locator, max = 200): Promise<number> {
  const el = await target.elementHandle();
  if (!el) throw new Error('no target');
  for (let n = 1; n <= max; n++) {
    await page.keyboard.press('Tab');
    if (await el.evaluate((e) => e === document.activeElement)) return n;
  }
  throw new Error(`target not reached in ${max} Tab presses`);
}

/** Tab then Enter on the skip link, then Tab to `target`; null when the page has no skip link. */
async function viaSkipLink(page: Page, target: () => Locator): Promise<number | null> {
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  if (!(await skip.evaluate((e) => e === document.activeElement).catch(() => false))) return null;
  await page.keyboard.press('Enter');
  return 2 + (await tabTo(page, target()));
}

/**
 * From a fresh load, the cheaper of Tab alone and the skip link then Tab; leaves the focus on
 * `target`.
 */
async function keysFromLoad(page: Page, url: string, target: () => Locator): Promise<number> {
  const load = async () => {
    await page.goto(url);
    await target().waitFor({ timeout: 30_000 });
  };
  await load();
  const skip = await viaSkipLink(page, target);
  await load();
  const plain = await tabTo(page, target());
  if (skip === null || plain <= skip) return plain;
  await load();
  return (await viaSkipLink(page, target))!;
}

const log = (job: string, clicks: number, keys: number, detail: string) => console.log(`      walk: ${job}: ${clicks} clicks, ${keys} key presses (${detail})`);

const specs: Spec[] = [
  {
    name: 'Tab presses from a queue page load to the first task link',
    run: async ({ newPage }) => {
      const { page } = await newPage();
      const first = () => page.getByRole('table', { name: 'pending tasks' }).locator('tbody tr').first().getByRole('link').first();
      const keys = await keysFromLoad(page, '/queues/default', first);
      log('queue page → first task link', 0, keys, 'Tab/Enter');
      // 50 before the skip link; the header and the state tabs still come before the table.
      assert.ok(keys <= 20, `${keys} presses to the first task link`);
    },
  },
  {
    name: 'browse to a failing task from the overview',
    run: async ({ newPage }) => {
      const { page } = await newPage();
      const retryLink = () => page.getByRole('table', { name: 'Queues' }).locator('tr', { has: page.getByRole('link', { name: 'webhooks', exact: true }) }).locator(`a[href*="state=retry"]`);
      const k1 = await keysFromLoad(page, '/', retryLink);
      await page.keyboard.press('Enter');
      const row = () => page.getByRole('table', { name: 'retry tasks' }).locator('tbody tr').first().getByRole('link').first();
      await row().waitFor();
      const k2 = await tabTo(page, row());
      await page.keyboard.press('Enter');
      await page.getByTestId('task-type').waitFor();
      log('failing task from the overview', 2, k1 + 1 + k2 + 1, `${k1}+Enter, ${k2}+Enter`);
    },
  },
  {
    name: 'enqueue a unique task',
    run: async ({ newPage }) => {
      const { page } = await newPage();
      const nav = () => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Enqueue' });
      const k1 = await keysFromLoad(page, '/', nav);
      await page.keyboard.press('Enter');
      await page.getByLabel('Queue', { exact: true }).waitFor();
      let keys = k1 + 1;
      for (const field of [page.getByLabel('Queue', { exact: true }), page.getByLabel('Type', { exact: true }), page.getByLabel('Unique TTL')]) {
        keys += await tabTo(page, field);
      }
      await fillTask(page, { queue: 'default', type: `walk:unique:${Date.now()}`, uniqueTtl: '1h' });
      await page.getByLabel('Unique TTL').focus();
      keys += (await tabTo(page, page.getByRole('button', { name: 'Enqueue', exact: true }))) + 1;
      log('enqueue a unique task', 1 + 3 + 1, keys, 'nav, Queue, Type, Unique TTL, Enqueue');
    },
  },
  {
    name: 'triage handler-not-found from the overview banner',
    run: async ({ newPage }) => {
      const { page } = await newPage({ height: 1000 });
      const banner = () => page.getByTestId('not-found-callout').getByRole('link', { name: NOT_FOUND_TYPE });
      await page.goto('/');
      await banner().waitFor({ timeout: 30_000 });
      const k1 = await keysFromLoad(page, '/', banner);
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === paths.failures());
      const rerun = () => page.getByRole('region', { name: `No handler for ${NOT_FOUND_TYPE}` }).getByRole('button', { name: /^Re-run \d+ tasks?$/ });
      await rerun().waitFor({ timeout: 30_000 });
      const k2 = await tabTo(page, rerun());
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      const confirm = dialog.getByRole('button', { name: /^Re-run \d+$/ });
      await confirm.waitFor();
      const k3 = await tabTo(page, confirm);
      log('triage handler-not-found', 3, k1 + 1 + k2 + 1 + k3 + 1, `${k1}+Enter, ${k2}+Enter, ${k3}+Enter`);
    },
  },
];

export default specs;
