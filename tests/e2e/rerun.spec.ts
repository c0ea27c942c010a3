/**
 * The re-run's confirmation on seeded failures (the whole incident walk, on a real Go fleet, is
 * fleet-rerun.spec.ts): the confirmation states the count read as it opened, a task that fails
 * the same way while it is open is moved too and the result says why the numbers differ; and
 * task detail gives the verdict Routing gives. Its own queue (seed-triage.ts), so no other
 * spec's counts move.
 */
import assert from 'node:assert/strict';
import * as k from '../../lib/asynq/keys';
import { json, newTaskMessage } from '../../lib/asynq/testutil/factories';
import { seedZset } from '../../lib/asynq/testutil/seed';
import { paths } from '../../lib/paths';
import { eventually, type Spec } from './support/harness';
import { NOT_FOUND_TYPE, TRIAGE_QUEUE } from './support/seed-triage';

export const phase = 'write';

const specs: Spec[] = [
  {
    name: 'the re-run moves what the confirmation counted, and one more that failed the same way meanwhile, and says so',
    run: async ({ newPage, redis, seeded, screenshot }) => {
      const tp = await newPage({ height: 1000 });
      const { page } = tp;
      await page.goto(paths.failures({ queue: TRIAGE_QUEUE }));
      const card = page.getByRole('region', { name: `No handler for ${NOT_FOUND_TYPE}` });
      await eventually('the failure group is listed', async () => {
        if ((await card.count()) > 0) return true;
        await page.reload({ waitUntil: 'load' });
        return false;
      }, 30_000);
      assert.equal(await card.getByTestId('verdict').getAttribute('data-verdict'), 'conflict');
      await card.getByText('1 pending · 1 scheduled').waitFor();
      await card.getByRole('button', { name: 'Re-run 5 tasks' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Re-run 5 tasks of ${NOT_FOUND_TYPE}?`).waitFor();
      assert.match(await dialog.getByTestId('rerun-count').innerText(), /Counted just now: the 5 tasks/);
      assert.equal(await dialog.getByTestId('verdict').getAttribute('data-verdict'), 'conflict');
      // One more fails the same way while the dialog is open: moved too, and the result says why 6.
      const late = newTaskMessage({ type: NOT_FOUND_TYPE, queue: TRIAGE_QUEUE, payload: json({ refund: 40 }), retried: 25, errorMsg: `handler not found for task ${JSON.stringify(NOT_FOUND_TYPE)}` });
      await seedZset(redis, 'archived', late, Math.floor(Date.now() / 1000));
      await dialog.getByRole('button', { name: 'Re-run 5' }).click();
      const result = dialog.getByTestId('rerun-result');
      await result.waitFor();
      assert.match(await result.innerText(), /Moved 6 tasks to pending \(4 of 4 archived, 2 of 2 retry\)/);
      assert.match(await dialog.getByTestId('rerun-difference').innerText(), /counted 5 at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(.+\).*1 more archived task failed the same way meanwhile/);
      await screenshot(page, 'rerun-result');

      for (const id of [...seeded.triage.failedIds, late.id]) {
        assert.notEqual(await redis.lpos(k.pendingKey(TRIAGE_QUEUE), id), null, `${id} is in the pending list`);
        assert.equal(await redis.hget(k.taskKey(TRIAGE_QUEUE, id), 'state'), 'pending');
      }
      assert.equal(await redis.zcard(k.archivedKey(TRIAGE_QUEUE)), 0);
      assert.equal(await redis.zcard(k.retryKey(TRIAGE_QUEUE)), 0);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await eventually('the group is gone from Failures', async () => (await card.count()) === 0);
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'task detail gives the same verdict as Routing, with a link to it',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.routing({ queue: TRIAGE_QUEUE, type: 'sms:send' }));
      const row = page.locator(`[data-testid="verdict-row"][data-queue=${JSON.stringify(TRIAGE_QUEUE)}][data-type="sms:send"]`);
      await row.getByTestId('verdict-summary').waitFor();
      const summary = await row.getByTestId('verdict-summary').innerText();
      const ids = await redis.lrange(k.pendingKey(TRIAGE_QUEUE), 0, -1);
      let id = '';
      for (const i of ids) {
        const msg = await redis.hgetBuffer(k.taskKey(TRIAGE_QUEUE, i), 'msg');
        if (msg?.includes('sms:send')) id = i;
      }
      assert.ok(id, 'an sms:send task is pending');
      await page.goto(paths.task(TRIAGE_QUEUE, id));
      const panel = page.getByTestId('task-routing');
      await panel.getByTestId('verdict-summary').waitFor();
      assert.equal(await panel.getByTestId('verdict-summary').innerText(), summary);
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
