/**
 * Issue 10, write side: act on every match. The count comes first (a preview), then the action
 * after confirming it, with its progress streamed; Redis is checked task by task.
 */
import assert from 'node:assert/strict';
import * as k from '../../lib/asynq/keys';
import { paths } from '../../lib/paths';
import { eventually, type Spec } from './support/harness';
import { SEARCH_QUEUE } from './support/seed-finder';

export const phase = 'write';

const specs: Spec[] = [
  {
    name: 'bulk-run every match: preview count, confirm, done; the tasks are pending in Redis',
    run: async ({ newPage, redis, seeded, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.search([['queue', SEARCH_QUEUE], ['type', 'order:sync'], ['state', 'retry']]));
      await page.getByRole('status', { name: 'Search progress' }).getByText('6 matches').waitFor();
      // Archived and pending are not in the filter: they must be left alone.
      const region = page.getByRole('region', { name: 'Act on matches' });
      await region.getByRole('button', { name: 'Run all…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Run 6 matching tasks?').waitFor();
      await screenshot(page, 'search-act');
      await dialog.getByRole('button', { name: 'Run 6' }).click();
      await dialog.getByText('Queued to run 6 tasks of 6 matched.').waitFor();
      for (const id of seeded.finder.retryIds) {
        assert.equal(await redis.hget(k.taskKey(SEARCH_QUEUE, id), 'state'), 'pending', `${id} pending`);
        assert.notEqual(await redis.lpos(k.pendingKey(SEARCH_QUEUE), id), null);
      }
      assert.equal(await redis.zcard(k.retryKey(SEARCH_QUEUE)), 0);
      assert.equal(await redis.zcard(k.archivedKey(SEARCH_QUEUE)), seeded.finder.archivedIds.length, 'archived ones untouched');
      await dialog.getByRole('button', { name: 'Close' }).click();
      // The search starts over by itself: nothing is in retry any more.
      await page.getByText('No task matches').waitFor();
      await eventually('toast', async () => (await page.getByText('Queued to run 6 tasks').count()) > 0);
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'an action no chosen state allows is disabled; a cancelled preview changes nothing',
    run: async ({ newPage, redis, seeded }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.search([['queue', SEARCH_QUEUE], ['state', 'pending'], ['type', 'order:refund']]));
      await page.getByRole('status', { name: 'Search progress' }).getByText('2 matches').waitFor();
      const region = page.getByRole('region', { name: 'Act on matches' });
      assert.ok(await region.getByRole('button', { name: 'Run all…' }).isDisabled(), 'pending tasks cannot be run');
      await region.getByRole('button', { name: 'Archive all…' }).click();
      await page.getByRole('dialog').getByText('Archive 2 matching tasks?').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      for (const id of seeded.finder.pendingIds) assert.equal(await redis.hget(k.taskKey(SEARCH_QUEUE, id), 'state'), 'pending', `${id} still pending`);
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
