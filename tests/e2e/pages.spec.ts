/**
 * Every page loads with the demo's real data, with no page error; screenshots of the main
 * pages go to docs/screenshots for the README.
 */
import assert from 'node:assert/strict';
import { eventually, type Spec, type TestPage } from './support/harness';

export const phase = 'read';

function noErrors(tp: TestPage) {
  assert.deepEqual(tp.errors, [], 'page errors');
  assert.deepEqual(tp.dialogs, [], 'dialogs');
}

const specs: Spec[] = [
  {
    name: 'overview lists every queue with counts, totals and the daily chart',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/');
      const table = page.getByRole('table', { name: 'Queues' });
      await table.getByRole('link', { name: 'webhooks', exact: true }).waitFor();
      for (const q of ['default', 'critical', 'notifications', 'low priority']) {
        await table.getByRole('link', { name: q, exact: true }).waitFor();
      }
      const row = table.locator('tr', { has: page.getByRole('link', { name: 'webhooks', exact: true }) });
      const text = await row.innerText();
      assert.match(text, /\b6\b/, 'webhooks has 6 retry tasks');
      assert.match(await table.locator('tfoot').innerText(), /Total/);
      await page.getByText('Processed today').waitFor();
      await page.locator('svg[aria-label="Tasks processed and failed per day"] rect').first().waitFor();
      assert.ok(await page.getByText('paused').first().isVisible(), 'paused badge for low priority');
      await screenshot(page, 'overview', { fullPage: true });
      noErrors(tp);
    },
  },
  {
    name: 'overview in the dark theme',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage({ colorScheme: 'dark' });
      await tp.page.goto('/');
      await tp.page.getByRole('table', { name: 'Queues' }).getByRole('link', { name: 'default', exact: true }).waitFor();
      assert.equal(await tp.page.locator('html').getAttribute('data-theme'), 'dark');
      await tp.page.locator('svg[aria-label="Tasks processed and failed per day"] rect').first().waitFor();
      await screenshot(tp.page, 'overview-dark', { fullPage: true });
      noErrors(tp);
    },
  },
  {
    name: 'queue page: tabs with counts, the table, the lock badge',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/queues/default');
      assert.equal(await page.getByTestId('queue-name').innerText(), 'default');
      const tabs = page.getByRole('navigation', { name: 'Task states' });
      await tabs.getByRole('link', { name: /Pending\s*43/ }).waitFor();
      await tabs.getByRole('link', { name: /Scheduled\s*12/ }).waitFor();
      const table = page.getByRole('table', { name: 'pending tasks' });
      await table.getByText('email:welcome').first().waitFor();
      assert.equal(await table.locator('tbody tr').count(), 20, 'first page of 20');
      await page.getByText('1–20 of 43').waitFor();
      await screenshot(page, 'queue');
      await page.goto('/queues/default?size=50');
      const locked = page.getByRole('table', { name: 'pending tasks' }).locator('tbody tr', { hasText: 'report:daily' });
      assert.match(await locked.locator('td').nth(7).innerText(), /^5\dm \d+s$/, 'the lock badge shows the TTL left');
      await page.goto('/queues/webhooks?state=retry');
      await page.getByRole('table', { name: 'retry tasks' }).getByText('503 Service Unavailable').first().waitFor();
      await screenshot(page, 'queue-retry');
      noErrors(tp);
    },
  },
  {
    name: 'task page: JSON payload tree, headers, details',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/queues/default');
      await page.getByRole('table', { name: 'pending tasks' }).getByRole('link').first().waitFor();
      await page.goto('/queues/default?state=pending&size=50');
      const row = page.getByRole('table', { name: 'pending tasks' }).locator('tbody tr', { hasText: 'email:receipt' });
      await row.getByRole('link').first().click();
      await page.getByTestId('task-type').getByText('email:receipt').waitFor();
      await page.getByTestId('payload-json').getByText('"orderId"').waitFor();
      await page.getByText('trace-id').waitFor();
      await page.getByText('acme').waitFor();
      await page.goto('/queues/webhooks?state=retry');
      await page.getByRole('table', { name: 'retry tasks' }).locator('tbody tr').first().getByRole('link').first().click();
      await page.getByTestId('task-type').getByText('webhook:deliver').waitFor();
      await page.getByTestId('payload-json').getByText('"url"').waitFor();
      await page.getByText(/503 Service Unavailable/).first().waitFor();
      await screenshot(page, 'task');
      noErrors(tp);
    },
  },
  {
    name: 'task page: unique lock with a live countdown',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/queues/default?state=pending&size=50');
      await page.getByRole('table', { name: 'pending tasks' }).locator('tbody tr', { hasText: 'report:daily' }).getByRole('link').first().click();
      const countdown = page.getByTestId('lock-countdown');
      await countdown.waitFor();
      const first = await countdown.innerText();
      await page.waitForTimeout(2100);
      assert.notEqual(await countdown.innerText(), first, 'the countdown ticks');
      await page.getByText('this task').waitFor();
      await screenshot(page, 'task-lock');
      noErrors(tp);
    },
  },
  {
    name: 'task page: a completed task shows its result',
    run: async ({ newPage }) => {
      const tp = await newPage();
      await tp.page.goto('/queues/default?state=completed');
      await tp.page.getByRole('table', { name: 'completed tasks' }).locator('tbody tr').first().getByRole('link').first().click();
      await tp.page.getByRole('heading', { name: 'Result' }).waitFor();
      await tp.page.getByText('"url"').waitFor();
      noErrors(tp);
    },
  },
  {
    name: 'servers page: servers, utilisation and workers',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/servers');
      await page.getByText('worker-1.prod').waitFor();
      await page.getByText('worker-2.prod').waitFor();
      await page.getByText('3 / 10').waitFor();
      await page.getByText('worker-1.prod').click();
      const workers = page.getByRole('table', { name: 'Workers' });
      await workers.getByText('image:resize').first().waitFor();
      assert.equal(await workers.locator('tbody tr').count(), 3);
      // Each worker's task payload, as asynqmon shows it.
      await workers.getByText('{"imageId":0}').waitFor();
      assert.match(page.url(), /open=/, 'the expanded server is in the URL');
      await screenshot(page, 'servers');
      noErrors(tp);
    },
  },
  {
    name: 'schedulers page: entries and their enqueue history',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/schedulers');
      await page.getByRole('cell', { name: '0 3 * * *' }).waitFor();
      await page.getByRole('cell', { name: '@every 5m' }).waitFor();
      await page.getByText('report:daily').first().click();
      const events = page.getByRole('table', { name: 'Enqueue events' });
      await events.locator('tbody tr').first().waitFor();
      assert.equal(await events.locator('tbody tr').count(), 3);
      assert.match(page.url(), /entry=entry-nightly-report/);
      await screenshot(page, 'schedulers');
      noErrors(tp);
    },
  },
  {
    name: 'redis page: INFO sections and the filter in the URL',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/redis');
      await page.getByText('redis_version').waitFor();
      await page.getByRole('searchbox', { name: 'Filter INFO fields' }).fill('used_memory');
      await page.waitForURL(/q=used_memory/);
      // The URL is written first (History API); the view re-renders from it a moment later.
      await eventually('redis_version filtered out', async () => (await page.getByText('redis_version').count()) === 0, 5000);
      await screenshot(page, 'redis');
      noErrors(tp);
    },
  },
  {
    name: 'settings: the theme persists and applies before paint',
    run: async ({ newPage }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/settings');
      await page.getByRole('radio', { name: 'Dark' }).click();
      assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
      await page.getByRole('radio', { name: 'Off' }).click();
      await page.goto('/', { waitUntil: 'commit' });
      await page.waitForSelector('body');
      assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark', 'dark before hydration');
      await page.getByText('Auto-refresh off').waitFor();
      noErrors(tp);
    },
  },
];

export default specs;
