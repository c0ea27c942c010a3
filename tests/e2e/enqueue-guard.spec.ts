/**
 * Stopping an incident before it starts, in the enqueue console: the pre-check and a batch warn
 * when the fleet's routing verdict says no live or declared handler on the queue takes the type;
 * a refusal by an archived task (its ID, or the unique lock it holds) names that task and offers
 * "delete the archived task and enqueue" as one confirmed step.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k from '../../lib/asynq/keys';
import { newTaskMessage } from '../../lib/asynq/testutil/factories';
import { seedLock, seedZset } from '../../lib/asynq/testutil/seed';
import { paths } from '../../lib/paths';
import type { Spec } from './support/harness';
import { fillTask, newTaskId, submit } from './support/enqueue-form';
import { ENQUEUE_QUEUE } from './support/seed-finder';

export const phase = 'write';

const LAST_ERROR = 'handler not found for task "e2e:gone"';

const specs: Spec[] = [
  {
    name: 'routing warning: the pre-check and a batch warn for a type no declared handler on the queue takes',
    run: async ({ newPage, startApp }) => {
      const dir = await mkdtemp(join(tmpdir(), 'asynqlens-guard-'));
      const file = join(dir, 'routing.json');
      await writeFile(file, JSON.stringify({ groups: [{ name: 'billing', queues: [ENQUEUE_QUEUE], patterns: ['invoice:'] }] }));
      const app = await startApp({ ASYNQLENS_ROUTING_FILE: file });
      try {
        const tp = await newPage({ baseUrl: app.url });
        const { page } = tp;
        await page.goto(paths.enqueue({ queue: ENQUEUE_QUEUE }));
        await fillTask(page, { type: 'e2e:nobody', payload: '{}' });
        const bad = page.locator('[data-testid="precheck-verdict"][data-verdict="not_handled"]');
        await bad.getByTestId('enqueue-routing-warning').getByText('No live or declared handler on', { exact: false }).waitFor();
        await bad.getByText('billing', { exact: false }).first().waitFor();
        await page.getByLabel('Type', { exact: true }).fill('invoice:e2e');
        await page.locator('[data-testid="precheck-verdict"][data-verdict="handled"]').waitFor();
        assert.equal(await page.getByTestId('enqueue-routing-warning').count(), 0, 'no warning for a handled type');

        await page.goto(paths.enqueue({ queue: ENQUEUE_QUEUE, tab: 'batch' }));
        await page.getByRole('textbox', { name: 'JSON lines' }).fill(['{"type":"e2e:nobody"}', '{"type":"invoice:e2e"}', '{"type":"e2e:nobody","payload":"x"}'].join('\n'));
        const warning = page.getByTestId('batch-routing-warning');
        await warning.getByText('Lines 1, 3', { exact: false }).waitFor();
        assert.equal(await warning.count(), 1, 'one warning: the handled type is not flagged');
        assert.deepEqual(tp.errors, []);
      } finally {
        await app.stop();
        await rm(dir, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'archived task in the way: its ID, then its unique lock; each named, then deleted and enqueued in one confirmed step',
    run: async ({ newPage, redis }) => {
      const suffix = Date.now().toString(36);
      const id = `e2e-archived-${suffix}`;
      await seedZset(redis, 'archived', newTaskMessage({ type: 'e2e:gone', queue: ENQUEUE_QUEUE, id, errorMsg: LAST_ERROR, lastFailedAt: Math.floor(Date.now() / 1000) - 60 }), Math.floor(Date.now() / 1000) - 30);
      await redis.sadd(k.ALL_QUEUES, ENQUEUE_QUEUE);
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.enqueue({ queue: ENQUEUE_QUEUE }));
      await fillTask(page, { type: 'e2e:gone', payload: '{"again":1}', taskId: id });
      assert.match(await submit(page), /Refused: task_id_conflict/);
      const block = page.getByTestId('archived-in-the-way');
      await page.getByTestId('enqueue-outcome').getByRole('link', { name: id }).first().waitFor();
      await block.getByText('That task is archived', { exact: false }).waitFor();
      assert.equal(await block.getByTestId('archived-last-error').innerText(), LAST_ERROR);
      await block.getByRole('button', { name: 'Delete the archived task and enqueue…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(id, { exact: false }).first().waitFor();
      await dialog.getByRole('button', { name: 'Delete and enqueue' }).click();
      assert.equal(await newTaskId(page), id);
      assert.equal(await redis.hget(k.taskKey(ENQUEUE_QUEUE, id), 'state'), 'pending');
      assert.equal(await redis.zscore(k.archivedKey(ENQUEUE_QUEUE), id), null);

      // The unique lock held by an archived task.
      const holder = `e2e-holder-${suffix}`;
      const payload = `{"lock":"${suffix}"}`;
      const lock = k.uniqueKey(ENQUEUE_QUEUE, 'e2e:locked', Buffer.from(payload));
      await seedZset(redis, 'archived', newTaskMessage({ type: 'e2e:locked', queue: ENQUEUE_QUEUE, id: holder, uniqueKey: lock, errorMsg: 'boom' }), Math.floor(Date.now() / 1000) - 30);
      await seedLock(redis, lock, holder, 3600);
      await page.goto(paths.enqueue({ queue: ENQUEUE_QUEUE }));
      await fillTask(page, { type: 'e2e:locked', payload, uniqueTtl: '1h' });
      assert.match(await submit(page), /Refused: duplicate_task/);
      const held = page.getByTestId('archived-in-the-way');
      await held.getByRole('link', { name: holder }).waitFor();
      await held.getByRole('button', { name: 'Delete the archived holder and enqueue…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete and enqueue' }).click();
      const fresh = await newTaskId(page);
      assert.notEqual(fresh, holder);
      assert.equal(await redis.get(lock), fresh);
      assert.equal(await redis.exists(k.taskKey(ENQUEUE_QUEUE, holder)), 0);
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'batch: a line refused by an archived task\'s ID offers the same confirmed delete-and-enqueue, and its row then shows the new task',
    run: async ({ newPage, redis }) => {
      const id = `e2e-batch-archived-${Date.now().toString(36)}`;
      await seedZset(redis, 'archived', newTaskMessage({ type: 'e2e:gone', queue: ENQUEUE_QUEUE, id, errorMsg: LAST_ERROR, lastFailedAt: Math.floor(Date.now() / 1000) - 60 }), Math.floor(Date.now() / 1000) - 30);
      await redis.sadd(k.ALL_QUEUES, ENQUEUE_QUEUE);
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.enqueue({ queue: ENQUEUE_QUEUE, tab: 'batch' }));
      await page.getByRole('textbox', { name: 'JSON lines' }).fill(['{"type":"e2e:batch-ok"}', `{"type":"e2e:gone","payload":"again","options":{"taskId":${JSON.stringify(id)}}}`].join('\n'));
      await page.getByRole('button', { name: 'Enqueue 2 lines' }).click();
      const row = page.locator('[aria-label="Batch results"] tr[data-line="2"]');
      const block = row.getByTestId('archived-in-the-way');
      await block.getByText('That task is archived', { exact: false }).waitFor();
      assert.equal(await block.getByTestId('archived-last-error').innerText(), LAST_ERROR);
      assert.match(await row.innerText(), /task_id_conflict/);
      await block.getByRole('button', { name: 'Delete the archived task and enqueue…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(id, { exact: false }).first().waitFor();
      await dialog.getByRole('button', { name: 'Delete and enqueue' }).click();
      await row.getByText('after deleting the archived task', { exact: false }).waitFor();
      assert.equal(await row.getByRole('link', { name: id }).count(), 1);
      assert.equal(await redis.hget(k.taskKey(ENQUEUE_QUEUE, id), 'state'), 'pending');
      assert.equal(await redis.zscore(k.archivedKey(ENQUEUE_QUEUE), id), null);
      assert.equal(Buffer.from((await redis.hgetBuffer(k.taskKey(ENQUEUE_QUEUE, id), 'msg'))!).includes('again'), true, 'the line\'s own payload');
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
