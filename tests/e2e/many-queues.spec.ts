/**
 * The overview and the sidebar at hundreds of queues: the queue table is one page of 100 with
 * a pager and a name filter kept in the URL, the totals still count every queue, and the
 * sidebar lists only the queues needing attention with a filter box and a link to all of them.
 * The extra queues are removed afterwards: the other specs expect the sample data alone.
 */
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import * as k from '../../lib/asynq/keys';
import { newTaskMessage } from '../../lib/asynq/testutil/factories';
import { seedPending } from '../../lib/asynq/testutil/seed';
import type { Spec } from './support/harness';

export const phase = 'write';

const EXTRA = 260;
const name = (i: number) => `zz-many-${String(i).padStart(3, '0')}`;

async function removeExtra(redis: Redis) {
  for (let i = 0; i < EXTRA; i++) {
    const keys = await redis.keys(`${k.queueKeyPrefix(name(i))}*`);
    await redis.pipeline().srem(k.ALL_QUEUES, name(i)).del(...keys).exec();
  }
}

const specs: Spec[] = [
  {
    name: 'at hundreds of queues the overview pages and filters its table and the sidebar lists the queues needing attention',
    run: async ({ newPage, redis, screenshot }) => {
      for (let i = 0; i < EXTRA; i++) await seedPending(redis, newTaskMessage({ type: 'many:queues', queue: name(i) }));
      try {
        const total = await redis.scard(k.ALL_QUEUES);
        const tp = await newPage();
        const { page } = tp;
        await page.goto('/');
        const table = page.getByRole('table', { name: 'Queues' });
        await table.locator('tbody tr').first().waitFor();
        assert.equal(await table.locator('tbody tr').count(), 100);
        const pager = page.getByRole('navigation', { name: 'Queue pages' });
        const pages = Math.ceil(total / 100);
        await pager.getByText(`page 1 of ${pages}`).waitFor();
        await page.getByText(`Total, all ${total} queues`).waitFor();

        const side = page.getByRole('complementary');
        await side.getByText('Queues needing attention').waitFor();
        await side.getByRole('link', { name: `All ${total} queues →` }).waitFor();
        assert.equal(await side.getByRole('link', { name: name(0) }).count(), 0, 'a healthy queue is not listed');
        await screenshot(page, 'overview-many-queues');

        await pager.getByRole('link', { name: 'Next →' }).click();
        await pager.getByText(`page 2 of ${pages}`).waitFor();
        assert.match(page.url(), /[?&]page=2\b/);

        await page.getByRole('searchbox', { name: 'Filter queues by name' }).fill('zz-many-25');
        await page.keyboard.press('Enter');
        await page.waitForURL(/[?&]q=zz-many-25\b/);
        await pager.getByText('1–10 of 10 matching “zz-many-25” queues').waitFor();
        assert.equal(await table.locator('tbody tr').count(), 10);
        assert.deepEqual(tp.errors, []);
      } finally {
        await removeExtra(redis);
      }
    },
  },
];

export default specs;
