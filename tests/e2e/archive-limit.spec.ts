/**
 * Archiving past asynq's archive limit (the newest 9,999 per queue): the confirmation says how
 * many archived tasks will be deleted and keeps its button disabled until the queue's name is
 * typed; the toast gives the number trimmed (the audit record's is in
 * tests/integration/api/archive-forecast.test.ts). Under the limit the confirmation is as before.
 */
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import * as k from '../../lib/asynq/keys';
import { newTaskMessage } from '../../lib/asynq/testutil/factories';
import { seedPending } from '../../lib/asynq/testutil/seed';
import { paths } from '../../lib/paths';
import { eventually, type Spec } from './support/harness';

export const phase = 'write';

const FULL = 'e2e-archive-full';
const ROOMY = 'e2e-archive-roomy';
const SEARCHED = 'e2e-archive-searched';

async function seed(redis: Redis, qname: string, archived: number, pending: number) {
  const now = Math.floor(Date.now() / 1000);
  const p = redis.pipeline().sadd(k.ALL_QUEUES, qname);
  for (let i = 0; i < archived; i++) p.zadd(k.archivedKey(qname), now - 3600 - i, `old-${i}`);
  await p.exec();
  for (let i = 0; i < pending; i++) await seedPending(redis, newTaskMessage({ type: 'archive:limit', queue: qname }));
}

const specs: Spec[] = [
  {
    name: 'archive-all past the limit: "11 archived tasks will be deleted", the queue name typed, 11 trimmed',
    run: async ({ newPage, redis, screenshot }) => {
      await seed(redis, FULL, 9_990, 20);
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(FULL, { state: 'pending', size: 10 }));
      await page.getByText('1–10 of 20').waitFor();
      await page.getByRole('checkbox', { name: 'Select every task on this page' }).check();
      await page.getByRole('button', { name: 'Select all 20 in pending' }).click();
      await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Archive 20' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('11 archived tasks will be deleted.').waitFor();
      await dialog.getByText('the oldest 11 tasks past the newest 9,999').waitFor();
      const confirm = dialog.getByRole('button', { name: 'Archive 20' });
      assert.equal(await confirm.isDisabled(), true, 'confirm must wait for the typed name');
      const name = dialog.getByLabel(`Type ${FULL} to confirm`);
      await name.fill(FULL.slice(0, -1));
      assert.equal(await confirm.isDisabled(), true, 'a partial name must not enable it');
      await name.fill(FULL);
      await eventually('confirm enabled', async () => !(await confirm.isDisabled()));
      await screenshot(page, 'archive-limit-confirm');
      await confirm.click();
      await page.getByText("Archived 20 tasks; asynq's archive limit deleted 11 older archived tasks").waitFor();
      assert.equal(await redis.zcard(k.archivedKey(FULL)), 9_999);
      assert.equal(await redis.llen(k.pendingKey(FULL)), 0);
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'archive of a selection under the limit: the usual confirmation, no typed name',
    run: async ({ newPage, redis }) => {
      await seed(redis, ROOMY, 10, 3);
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(ROOMY, { state: 'pending' }));
      await page.getByRole('table', { name: 'pending tasks' }).locator('tbody tr').first().waitFor();
      await page.getByRole('checkbox', { name: 'Select every task on this page' }).check();
      await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Archive 3' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Archive 3 pending tasks?').waitFor();
      const confirm = dialog.getByRole('button', { name: 'Archive 3' });
      await eventually('confirm enabled once the limit is checked', async () => !(await confirm.isDisabled()));
      assert.equal(await dialog.getByText('will be deleted').count(), 0);
      assert.equal(await dialog.getByRole('textbox').count(), 0);
      await confirm.click();
      await page.getByText('Archived 3 tasks').waitFor();
      assert.equal(await redis.zcard(k.archivedKey(ROOMY)), 13);
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'search: archive-all matches past the limit names the queue to type; the result gives the tasks trimmed',
    run: async ({ newPage, redis }) => {
      await seed(redis, SEARCHED, 9_999, 4);
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.search([['queue', SEARCHED], ['state', 'pending']]));
      await page.getByRole('status', { name: 'Search progress' }).getByText('4 matches').waitFor();
      await page.getByRole('region', { name: 'Act on matches' }).getByRole('button', { name: 'Archive all…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('4 archived tasks will be deleted.').waitFor();
      const confirm = dialog.getByRole('button', { name: 'Archive 4' });
      assert.equal(await confirm.isDisabled(), true);
      await dialog.getByLabel(`Type ${SEARCHED} to confirm`).fill(SEARCHED);
      await confirm.click();
      await dialog.getByText("asynq's archive limit deleted 4 older archived tasks to make room.").waitFor();
      assert.equal(await redis.zcard(k.archivedKey(SEARCHED)), 9_999);
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
