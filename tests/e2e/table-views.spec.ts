/**
 * Task tables and the overview's queue table as views: archived newest first, the time column's
 * sort toggle, the type filter, paging, all in the URL (a reload gives the same view), saved
 * views and "Copy link"; the overview's table sorted by a column and a row's pause from its menu.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import * as k from '../../lib/asynq/keys';
import { json, newTaskMessage } from '../../lib/asynq/testutil/factories';
import { seedZset } from '../../lib/asynq/testutil/seed';
import { paths } from '../../lib/paths';
import { eventually, type Spec, type TestPage } from './support/harness';

export const phase = 'write';

const Q = 'e2e-views';
const N = 30;
const id = (i: number) => `view-${String(i).padStart(2, '0')}`;
const type = (i: number) => (i % 2 === 0 ? 'mail:send' : 'sms:send');

async function seed(redis: Parameters<Spec['run']>[0]['redis']) {
  const base = Math.floor(Date.now() / 1000) - 3 * 3600;
  for (let i = 0; i < N; i++) {
    await seedZset(redis, 'archived', newTaskMessage({ id: id(i), type: type(i), queue: Q, payload: json({ n: i }), errorMsg: 'boom' }), base + i * 60);
  }
}

async function drop(redis: Parameters<Spec['run']>[0]['redis']) {
  const keys = await redis.keys(`${k.queueKeyPrefix(Q)}*`);
  if (keys.length) await redis.del(...keys);
  await redis.srem(k.ALL_QUEUES, Q);
}

const firstId = (page: Page, table: string) => page.getByRole('table', { name: table }).locator('tbody tr').first().getByRole('link').first().innerText();
const firstIs = (page: Page, table: string, want: string) => eventually(`first row ${want}`, async () => (await firstId(page, table)).trim() === want);
const sortOf = (page: Page, table: string, header: string) =>
  page.getByRole('table', { name: table }).locator('th', { hasText: header }).first().getAttribute('aria-sort');
const param = (page: Page, key: string) => new URL(page.url()).searchParams.get(key);

function noErrors(tp: TestPage) {
  assert.deepEqual(tp.errors, [], 'page errors');
  assert.deepEqual(tp.dialogs, [], 'dialogs');
}

const specs: Spec[] = [
  {
    name: 'archived newest first; the time column sorts both ways; type filter, page and order survive a reload; saved views and Copy link',
    run: async ({ newPage, redis, screenshot }) => {
      await seed(redis);
      try {
        const tp = await newPage();
        const { page, context } = tp;
        await page.goto(paths.queue(Q, { state: 'archived' }));
        await firstIs(page, 'archived tasks', id(N - 1));
        assert.equal(await sortOf(page, 'archived tasks', 'Last failed'), 'descending');
        assert.equal(param(page, 'order'), null, 'the default order stays out of the URL');
        await screenshot(page, 'table-archived-newest');

        await page.getByRole('table', { name: 'archived tasks' }).getByRole('button', { name: /Last failed/ }).click();
        await page.waitForURL((u) => u.searchParams.get('order') === 'asc');
        await firstIs(page, 'archived tasks', id(0));
        assert.equal(await sortOf(page, 'archived tasks', 'Last failed'), 'ascending');
        await page.getByRole('button', { name: 'Next page' }).click();
        await page.waitForURL((u) => u.searchParams.get('page') === '2');
        await firstIs(page, 'archived tasks', id(20));
        await page.reload();
        await firstIs(page, 'archived tasks', id(20));
        assert.equal(await sortOf(page, 'archived tasks', 'Last failed'), 'ascending');

        // The type control writes the filter's own `type:` word.
        const typeSelect = page.getByRole('combobox', { name: 'Task type' });
        await typeSelect.selectOption('sms:send');
        await page.waitForURL((u) => u.searchParams.get('q') === 'type:sms:send');
        assert.equal(param(page, 'page'), null, 'a new filter starts at page 1');
        const results = page.getByRole('table', { name: 'Search results' }).locator('tbody tr');
        await eventually('15 sms tasks', async () => (await results.count()) === N / 2);
        for (const text of await results.allInnerTexts()) assert.match(text, /sms:send/);
        await page.reload();
        assert.equal(await page.getByRole('combobox', { name: 'Task type' }).inputValue(), 'sms:send');
        await eventually('15 sms tasks after reload', async () => (await results.count()) === N / 2);
        await screenshot(page, 'table-type-filter');

        // Copy link copies the whole view.
        await context.grantPermissions(['clipboard-read', 'clipboard-write']);
        await page.getByRole('button', { name: 'Copy link' }).click();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());

        // Save the view, open it from another page, then delete it.
        const viewUrl = page.url();
        await page.getByRole('button', { name: 'Save view' }).click();
        await page.getByRole('textbox', { name: 'Name' }).fill('sms archived');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.goto(paths.overview());
        await page.getByRole('table', { name: 'Queues' }).waitFor();
        await page.getByRole('button', { name: 'Views', exact: true }).click(); // the overview loads the bar on demand
        await page.getByText('Saved views').click();
        await page.getByRole('list', { name: 'Saved views' }).getByRole('link', { name: 'sms archived' }).click();
        await page.waitForURL((u) => u.href === viewUrl);
        await eventually('the saved view shows its tasks', async () => (await results.count()) === N / 2);
        await page.getByText('Saved views').click();
        await page.getByRole('button', { name: 'Delete saved view sms archived' }).click();
        await page.getByText('No saved views').waitFor();
        noErrors(tp);
      } finally {
        await drop(redis);
      }
    },
  },
  {
    name: 'overview: the queue table sorts by a column (aria-sort, kept on reload); a row menu pauses after a confirmation and resumes',
    run: async ({ newPage, redis, screenshot }) => {
      await seed(redis);
      try {
        const tp = await newPage();
        const { page } = tp;
        await page.goto(paths.overview());
        const table = page.getByRole('table', { name: 'Queues' });
        await table.getByRole('link', { name: Q, exact: true }).waitFor();
        assert.equal(await sortOf(page, 'Queues', 'Queue'), 'ascending');
        await table.getByRole('link', { name: /^archived/ }).click();
        await page.waitForURL((u) => u.searchParams.get('sort') === 'archived' && u.searchParams.get('order') === 'desc');
        await eventually('sorted by archived', async () => (await sortOf(page, 'Queues', 'archived')) === 'descending');
        const archivedCounts = async () => {
          const col = await table.locator('thead th').evaluateAll((ths) => ths.findIndex((th) => th.textContent?.trim().startsWith('archived')));
          return (await table.locator(`tbody tr td:nth-child(${col + 1})`).allInnerTexts()).map((s) => Number(s.replace(/,/g, '')));
        };
        await eventually('largest archived first', async () => {
          const counts = await archivedCounts();
          return counts.length > 1 && counts.every((n, i) => i === 0 || counts[i - 1]! >= n);
        });
        assert.equal(await sortOf(page, 'Queues', 'Queue'), 'none');
        await page.reload();
        assert.equal(await sortOf(page, 'Queues', 'archived'), 'descending');
        await screenshot(page, 'overview-sorted');
        await table.getByRole('link', { name: /^archived/ }).click();
        await page.waitForURL((u) => u.searchParams.get('sort') === 'archived' && u.searchParams.get('order') === null);
        await eventually('ascending', async () => (await sortOf(page, 'Queues', 'archived')) === 'ascending');

        // The row menu: states to open, and pause behind a confirmation.
        await page.goto(paths.overview());
        await page.getByRole('button', { name: `Actions for queue ${Q}` }).click();
        await page.getByRole('link', { name: /^archived/ }).last().waitFor();
        await page.getByRole('button', { name: 'Pause…' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByText(`Pause queue ${Q}?`).waitFor();
        await screenshot(page, 'overview-row-pause');
        await dialog.getByRole('button', { name: 'Pause', exact: true }).click();
        await eventually('queue paused in Redis', async () => (await redis.exists(k.pausedKey(Q))) === 1);
        const row = table.locator('tr', { has: page.getByRole('link', { name: Q, exact: true }) });
        await row.getByText('paused').waitFor({ timeout: 15_000 });
        await page.getByRole('button', { name: `Actions for queue ${Q}` }).click();
        await page.getByRole('button', { name: 'Resume' }).click();
        await eventually('queue resumed in Redis', async () => (await redis.exists(k.pausedKey(Q))) === 0);
        noErrors(tp);
      } finally {
        await drop(redis);
      }
    },
  },
];

export default specs;
