/**
 * Every action changes Redis as expected, through the UI: single-task actions (optimistic,
 * rolled back on error), bulk actions with their exact-count confirmation, pause/resume, and
 * deleting a queue. Read-only mode hides all of them.
 *
 * Needs the mutation routes of http-api.md "Mutations" (POST …/run|archive, DELETE task,
 * POST …/bulk, POST …/pause|resume, DELETE queue).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import * as k from '../../lib/asynq/keys';
import { paths } from '../../lib/paths';
import { eventually, type Spec } from './support/harness';
import { ACTIONS_QUEUE, DELETE_QUEUE, PAUSE_QUEUE } from './support/seed-extra';

export const phase = 'write';

/**
 * `ms` as a datetime-local input's text in the browser's own time zone. A string, not a
 * function: the test build's helpers are not defined in the page.
 */
function localInput(page: Page, ms: number): Promise<string> {
  return page.evaluate(`(() => {
    const d = new Date(${ms});
    const p = (n) => String(n).padStart(2, '0');
    return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + 'T' + p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds());
  })()`);
}

const specs: Spec[] = [
  {
    name: 'archive one pending task from its row: gone at once, archived in Redis',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(ACTIONS_QUEUE, { state: 'pending' }));
      const rows = page.getByRole('table', { name: 'pending tasks' }).locator('tbody tr');
      await rows.first().waitFor();
      const before = await rows.count();
      const id = await rows.first().getByRole('link').first().innerText();
      await rows.first().getByRole('button', { name: 'Archive task' }).click();
      await page.getByRole('link', { name: id }).waitFor({ state: 'detached', timeout: 2000 });
      await eventually('task archived in Redis', async () => (await redis.zscore(k.archivedKey(ACTIONS_QUEUE), id)) !== null);
      assert.equal(await redis.lpos(k.pendingKey(ACTIONS_QUEUE), id), null);
      await eventually('one row fewer', async () => (await rows.count()) === before - 1);
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'a refused action rolls back: the row returns and a toast says why',
    run: async ({ newPage }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.route('**/archive', (route) =>
        route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'failed_precondition', message: 'simulated refusal' } }) }),
      );
      await page.goto(paths.queue(ACTIONS_QUEUE, { state: 'pending' }));
      const rows = page.getByRole('table', { name: 'pending tasks' }).locator('tbody tr');
      await rows.first().waitFor();
      const id = await rows.first().getByRole('link').first().innerText();
      await rows.first().getByRole('button', { name: 'Archive task' }).click();
      await page.getByRole('alert').getByText('simulated refusal').waitFor();
      await page.getByRole('link', { name: id }).waitFor();
    },
  },
  {
    name: 'reschedule a retry task from its row to a picked time, confirmed: only its score moves; the task page refuses a past time naming the field',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(ACTIONS_QUEUE, { state: 'retry' }));
      const rows = page.getByRole('table', { name: 'retry tasks' }).locator('tbody tr');
      await rows.first().waitFor();
      const id = await rows.first().getByRole('link').first().innerText();
      const hashBefore = await redis.hgetallBuffer(k.taskKey(ACTIONS_QUEUE, id));
      await rows.first().getByRole('button', { name: 'Reschedule task' }).click();
      const dialog = page.getByRole('dialog');
      // Two days and an hour ahead, to the second, typed as the viewer's local time (the hour
      // keeps the relative preview at "2d" however long the dialog takes to render).
      const target = Math.floor(Date.now() / 1000) * 1000 + 2 * 86_400_000 + 3_600_000;
      const local = await localInput(page, target);
      await dialog.getByLabel('New time (your time zone)').fill(local);
      await dialog.getByTestId('reschedule-preview').getByText(/\(in 2d/).waitFor();
      await dialog.getByRole('button', { name: 'Reschedule' }).click();
      await eventually('new score in Redis', async () => (await redis.zscore(k.retryKey(ACTIONS_QUEUE), id)) === String(target / 1000));
      assert.deepEqual(await redis.hgetallBuffer(k.taskKey(ACTIONS_QUEUE, id)), hashBefore, 'the hash is unchanged');
      await dialog.waitFor({ state: 'detached' });

      await page.goto(paths.task(ACTIONS_QUEUE, id));
      await page.getByRole('button', { name: 'Reschedule' }).click();
      const again = page.getByRole('dialog');
      await again.getByText(/\(in (2d|1d 23h)\)/).first().waitFor();
      const past = await localInput(page, Date.now() - 3_600_000);
      await again.getByLabel('New time (your time zone)').fill(past);
      await again.getByRole('button', { name: 'Reschedule' }).click();
      await again.getByRole('alert').getByText(/^processAt: .* is in the past/).waitFor();
      assert.equal(await redis.zscore(k.retryKey(ACTIONS_QUEUE), id), String(target / 1000), 'a refused time changes nothing');
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'bulk: run the selected retry tasks after a confirmation naming the count',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(ACTIONS_QUEUE, { state: 'retry' }));
      await page.getByRole('table', { name: 'retry tasks' }).locator('tbody tr').first().waitFor();
      await page.getByRole('checkbox', { name: 'Select every task on this page' }).check();
      await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Run 5' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Run 5 retry tasks?').waitFor();
      await dialog.getByRole('button', { name: 'Run 5' }).click();
      await page.getByText('Queued to run 5 tasks').waitFor();
      assert.equal(await redis.zcard(k.retryKey(ACTIONS_QUEUE)), 0);
      assert.ok((await redis.llen(k.pendingKey(ACTIONS_QUEUE))) >= 5);
      await page.getByText('No retry tasks').waitFor();
    },
  },
  {
    name: 'bulk: "all 12 in scheduled" across pages, deleted after confirming the exact count',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(ACTIONS_QUEUE, { state: 'scheduled', size: 10 }));
      await page.getByText('1–10 of 12').waitFor();
      await page.getByRole('checkbox', { name: 'Select every task on this page' }).check();
      await page.getByRole('button', { name: 'Select all 12 in scheduled' }).click();
      await page.getByText('All 12 scheduled tasks selected').waitFor();
      await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Delete 12' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Delete 12 scheduled tasks?').waitFor();
      await dialog.getByRole('button', { name: 'Delete 12' }).click();
      await page.getByText('Deleted 12 tasks').waitFor();
      assert.equal(await redis.zcard(k.scheduledKey(ACTIONS_QUEUE)), 0);
    },
  },
  {
    name: 'run an archived task from its page',
    run: async ({ newPage, redis, seeded }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.task(ACTIONS_QUEUE, seeded.archivedId));
      await page.getByRole('button', { name: 'Run' }).click();
      await eventually('task pending in Redis', async () => (await redis.lpos(k.pendingKey(ACTIONS_QUEUE), seeded.archivedId)) !== null);
      await page.getByText('pending', { exact: true }).first().waitFor();
    },
  },
  {
    name: 'pause and resume a queue',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(PAUSE_QUEUE));
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByRole('button', { name: 'Resume' }).waitFor();
      await eventually('paused key set', async () => (await redis.exists(k.pausedKey(PAUSE_QUEUE))) === 1);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByRole('button', { name: 'Pause' }).waitFor();
      await eventually('paused key gone', async () => (await redis.exists(k.pausedKey(PAUSE_QUEUE))) === 0);
    },
  },
  {
    name: 'delete a non-empty queue only with force and its name typed',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(DELETE_QUEUE));
      await page.getByRole('button', { name: 'Delete queue' }).click();
      const dialog = page.getByRole('dialog');
      const confirm = dialog.getByRole('button', { name: 'Delete queue and 2 tasks' });
      assert.ok(await confirm.isDisabled(), 'disabled until forced');
      await dialog.getByRole('checkbox').check();
      await dialog.getByRole('textbox', { name: 'Queue name' }).fill(DELETE_QUEUE);
      await confirm.click();
      await page.waitForURL((u) => u.pathname === '/');
      assert.equal(await redis.sismember(k.ALL_QUEUES, DELETE_QUEUE), 0);
      assert.equal(await redis.llen(k.pendingKey(DELETE_QUEUE)), 0);
    },
  },
  {
    name: 'read-only mode (ASYNQLENS_READ_ONLY=1) hides every mutation control; the API refuses',
    run: async ({ newPage, startApp }) => {
      const app = await startApp({ ASYNQLENS_READ_ONLY: '1' });
      try {
        const tp = await newPage({ baseUrl: app.url });
        const { page } = tp;
        await page.goto(paths.queue('webhooks', { state: 'retry' }));
        await page.getByText('read-only', { exact: true }).waitFor();
        await page.getByRole('table', { name: 'retry tasks' }).locator('tbody tr').first().waitFor();
        for (const name of ['Pause', 'Resume', 'Delete queue', 'Run task', 'Archive task', 'Delete task', 'Reschedule task']) {
          assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, `no ${name} button`);
        }
        assert.equal(await page.getByRole('checkbox').count(), 0, 'no selection checkboxes');
        await page.getByRole('table', { name: 'retry tasks' }).locator('tbody tr').first().getByRole('link').first().click();
        await page.getByTestId('task-type').waitFor();
        for (const name of ['Run', 'Archive', 'Delete', 'Reschedule']) {
          assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, `no ${name} button on the task page`);
        }
        const res = await fetch(`${app.url}/api/queues/webhooks/pause`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        assert.equal(res.status, 403);
        assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'read_only');
      } finally {
        await app.stop();
      }
    },
  },
];

export default specs;
