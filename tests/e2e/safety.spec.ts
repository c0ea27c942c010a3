/**
 * Untrusted data stays data: an HTML payload, error and task type render as text and never
 * run; a 10 MB payload leaves the tab responsive; binary payloads show as hex.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { paths } from '../../lib/paths';
import type { Spec } from './support/harness';
import { SAFETY_QUEUE, XSS } from './support/seed-extra';

export const phase = 'read';

/** Milliseconds for the main thread to answer: a frozen tab cannot. */
async function responsiveness(page: Page): Promise<number> {
  const started = Date.now();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  return Date.now() - started;
}

async function noInjectedMarkup(page: Page) {
  assert.equal(await page.locator('img[src="x"]').count(), 0, 'no <img> from a payload');
  assert.equal(await page.locator('svg[onload]').count(), 0, 'no <svg onload> from a task type');
}

const specs: Spec[] = [
  {
    name: 'an XSS payload, error and type render as text in the list and the task page',
    run: async ({ newPage, seeded }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(SAFETY_QUEUE, { state: 'retry' }));
      const table = page.getByRole('table', { name: 'retry tasks' });
      await table.getByText(XSS).waitFor();
      await table.getByText('<script>alert(2)</script>').waitFor();
      await page.goto(paths.queue(SAFETY_QUEUE, { state: 'pending' }));
      await page.getByRole('table', { name: 'pending tasks' }).getByText('<svg onload=alert(3)>').waitFor();
      await page.goto(paths.task(SAFETY_QUEUE, seeded.xssTaskId));
      await page.getByTestId('payload-text').getByText(XSS).waitFor();
      await page.getByText('<script>alert(2)</script>').waitFor();
      await page.waitForTimeout(500);
      await noInjectedMarkup(page);
      assert.deepEqual(tp.dialogs, [], 'no alert() ran');
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'a 10 MB payload opens at once, loads in full on demand, and never freezes the tab',
    run: async ({ newPage, seeded, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      const started = Date.now();
      await page.goto(paths.task(SAFETY_QUEUE, seeded.bigTaskId));
      await page.getByTestId('payload-text').waitFor();
      const opened = Date.now() - started;
      assert.ok(opened < 8000, `task page took ${opened} ms`);
      assert.ok((await responsiveness(page)) < 500, 'responsive after opening');
      await page.getByText(/Large payload: showing the first 1\.0 MiB of 10 MiB/).waitFor();
      const shown = (await page.getByTestId('payload-text').innerText()).length;
      assert.ok(shown <= 70 * 1024, `renders a slice (${shown} chars), not the whole payload`);
      await screenshot(page, 'task-large-payload');
      await page.getByRole('button', { name: /Load all 10 MiB/ }).click();
      await page.getByText(/of 10 MiB characters/).waitFor({ timeout: 20_000 });
      assert.ok((await responsiveness(page)) < 1000, 'responsive with 10 MB loaded');
      await page.getByRole('button', { name: /Show 256 KiB more/ }).click();
      assert.ok((await responsiveness(page)) < 1000, 'responsive after showing more');
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'unreadable tasks (hash missing, corrupt bytes) are listed as flagged rows with the reason',
    run: async ({ newPage }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(SAFETY_QUEUE, { state: 'pending' }));
      const table = page.getByRole('table', { name: 'pending tasks' });
      for (const id of ['ghost-task', 'corrupt-task']) {
        const row = table.locator('tbody tr', { has: page.getByRole('link', { name: id, exact: true }) });
        await row.waitFor();
        assert.match(await row.innerText(), /Unreadable task: /);
      }
      await table.getByText('import:huge').waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'a unique lock held by another task links to its holder',
    run: async ({ newPage, seeded }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.task(SAFETY_QUEUE, seeded.lockedOutId));
      const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Unique lock' }) });
      await panel.getByRole('link', { name: seeded.lockHolderId }).click();
      await page.getByTestId('task-id').getByText(seeded.lockHolderId).waitFor();
      await page.getByText('this task').waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'a binary payload shows as hex and base64',
    run: async ({ newPage, baseUrl }) => {
      const res = (await (await fetch(`${baseUrl}/api/queues/default/tasks?state=pending&size=100`)).json()) as { tasks: { id: string; type: string }[] };
      const blob = res.tasks.find((t) => t.type === 'blob:thumbnail');
      assert.ok(blob, 'the demo has a binary task');
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.task('default', blob.id));
      const hex = page.getByTestId('payload-hex');
      await hex.waitFor();
      assert.match(await hex.innerText(), /00000000 {2}89 50 4e 47 0d 0a 1a 0a {2}ff/);
      assert.match(await hex.innerText(), /\.PNG\.\.\.\.\./);
      await page.getByRole('button', { name: 'Base64', exact: true }).click();
      await page.getByTestId('payload-text').getByText('iVBORw0KGgr/').waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
