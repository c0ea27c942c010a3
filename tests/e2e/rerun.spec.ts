/**
 * The fleet's one truth, walked in Chromium as a new user would: the overview's banner gives
 * the type's verdict (a conflict: a server ran it, others fail it), Failures gives the same
 * verdict for the queue, Routing the same with its evidence; the re-run's confirmation states
 * the count read as it opened, a task that fails the same way meanwhile is moved too and the
 * result says so; then the banner no longer lists the type. Its own queue (seed-triage.ts), so
 * no other spec's counts move.
 */
import assert from 'node:assert/strict';
import * as k from '../../lib/asynq/keys';
import { json, newTaskMessage } from '../../lib/asynq/testutil/factories';
import { seedZset } from '../../lib/asynq/testutil/seed';
import { paths } from '../../lib/paths';
import { eventually, type Spec } from './support/harness';
import { NOT_FOUND_TYPE, TRIAGE_QUEUE } from './support/seed-triage';

export const phase = 'write';

const bannerType = `[data-testid="banner-type"][data-type=${JSON.stringify(NOT_FOUND_TYPE)}]`;

const specs: Spec[] = [
  {
    name: 'banner → Failures → Routing agree on the verdict → re-run with exact counts → banner gone',
    run: async ({ newPage, redis, seeded, screenshot }) => {
      const tp = await newPage({ height: 1000 });
      const { page } = tp;
      await page.goto('/');
      const callout = page.getByTestId('not-found-callout');
      const line = callout.locator(bannerType);
      // The first visit may come before the server's evidence scans finished once.
      await eventually('the banner gives the conflict', async () => {
        if ((await line.getByTestId('verdict').getAttribute('data-verdict', { timeout: 5000 }).catch(() => null)) === 'conflict') return true;
        await page.reload({ waitUntil: 'load' });
        return false;
      }, 30_000);
      assert.match(await callout.innerText(), /failed because no worker had a handler/);
      const summary = await line.getByTestId('verdict-summary').innerText();
      assert.match(summary, /without this handler has failed/);

      await callout.getByRole('link', { name: NOT_FOUND_TYPE, exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/failures' && u.searchParams.get('queue') === TRIAGE_QUEUE);
      const card = page.getByRole('region', { name: `No handler for ${NOT_FOUND_TYPE}` });
      await card.getByTestId('verdict').waitFor();
      assert.equal(await card.getByTestId('verdict').getAttribute('data-verdict'), 'conflict');
      assert.equal(await card.getByTestId('verdict-summary').innerText(), summary, 'Failures says what the banner says');
      await card.getByText('1 pending · 1 scheduled').waitFor();

      await card.getByRole('link', { name: 'see its routing' }).click();
      await page.waitForURL((u) => u.pathname === '/routing' && u.searchParams.get('type') === NOT_FOUND_TYPE);
      const row = page.locator(`[data-testid="verdict-row"][data-queue=${JSON.stringify(TRIAGE_QUEUE)}][data-type=${JSON.stringify(NOT_FOUND_TYPE)}]`);
      await row.waitFor();
      assert.equal(await row.getByTestId('verdict').getAttribute('data-verdict'), 'conflict');
      assert.equal(await row.getByTestId('verdict-summary').innerText(), summary, 'Routing says what the banner says');
      const evidence = row.getByTestId('verdict-evidence');
      await evidence.waitFor(); // opened: the type the link pointed at
      assert.equal(await evidence.locator('[data-kind="handler_not_found"]').count(), 1);
      assert.equal(await evidence.locator('[data-kind="seen_completed"]').count(), 1);
      assert.match(await row.innerText(), /Since /);
      await screenshot(page, 'routing');

      await page.goBack();
      await page.waitForURL((u) => u.pathname === '/failures');
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
      assert.match(await dialog.getByTestId('rerun-difference').innerText(), /counted 5 at .*1 more archived task failed the same way meanwhile/);
      await screenshot(page, 'rerun-result');

      for (const id of [...seeded.triage.failedIds, late.id]) {
        assert.notEqual(await redis.lpos(k.pendingKey(TRIAGE_QUEUE), id), null, `${id} is in the pending list`);
        assert.equal(await redis.hget(k.taskKey(TRIAGE_QUEUE, id), 'state'), 'pending');
      }
      assert.equal(await redis.zcard(k.archivedKey(TRIAGE_QUEUE)), 0);
      assert.equal(await redis.zcard(k.retryKey(TRIAGE_QUEUE)), 0);

      await dialog.getByRole('button', { name: 'Close' }).click();
      await eventually('the group is gone from Failures', async () => (await card.count()) === 0);
      await page.goto('/');
      await eventually('the banner no longer lists the type', async () => {
        await page.reload({ waitUntil: 'load' }); // the banner streams in before the document ends
        return (await page.locator(bannerType).count()) === 0;
      }, 30_000);
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
