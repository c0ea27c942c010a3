/**
 * Issue 7's path in Chromium, as a new user would take it: from the overview's callout to the
 * not-found group, its explanation, and the confirmed re-run; Redis then holds every one of
 * those tasks in pending. Its own queue (seed-triage.ts), so no other spec's counts move.
 */
import assert from 'node:assert/strict';
import * as k from '../../lib/asynq/keys';
import { eventually, type Spec } from './support/harness';
import { NOT_FOUND_TYPE, TRIAGE_QUEUE } from './support/seed-triage';

export const phase = 'write';

const specs: Spec[] = [
  {
    name: 'overview → the not-found group → its explanation → re-run: the tasks are pending in Redis',
    run: async ({ newPage, redis, seeded }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/');
      const callout = page.getByTestId('not-found-callout');
      await callout.waitFor();
      assert.match(await callout.innerText(), /failed because no worker had a handler/);
      await callout.getByRole('link', { name: NOT_FOUND_TYPE, exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/failures' && u.searchParams.get('queue') === TRIAGE_QUEUE);
      const card = page.getByRole('region', { name: `No handler for ${NOT_FOUND_TYPE}` });
      await card.waitFor();
      assert.match(await card.getByTestId('not-found-explanation').innerText(), /No worker registered a handler for "billing:refund".*re-run/s);
      await card.getByText('1 pending · 1 scheduled').waitFor();
      await card.getByText('none right now').waitFor();

      await card.getByRole('button', { name: 'Re-run 5 tasks' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Re-run 5 tasks of ${NOT_FOUND_TYPE}?`).waitFor();
      await dialog.getByRole('button', { name: 'Re-run 5' }).click();
      const result = dialog.getByTestId('rerun-result');
      await result.waitFor();
      assert.match(await result.innerText(), /Moved 5 tasks to pending \(3 of 3 archived, 2 of 2 retry\)/);

      for (const id of seeded.triage.failedIds) {
        assert.notEqual(await redis.lpos(k.pendingKey(TRIAGE_QUEUE), id), null, `${id} is in the pending list`);
        assert.equal(await redis.hget(k.taskKey(TRIAGE_QUEUE, id), 'state'), 'pending');
      }
      assert.equal(await redis.zcard(k.archivedKey(TRIAGE_QUEUE)), 0);
      assert.equal(await redis.zcard(k.retryKey(TRIAGE_QUEUE)), 0);

      await dialog.getByRole('button', { name: 'Close' }).click();
      await eventually('the group is gone', async () => (await card.count()) === 0);
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
