/**
 * Issue 6, acting: releasing a lock (confirmed, and never one that changed owner) and the
 * Duplicates page from scan to "keep one", with the counts right afterwards, checked in Redis.
 * Data: support/seed-uniqueness.ts.
 */
import assert from 'node:assert/strict';
import * as k from '../../lib/asynq/keys';
import { paths } from '../../lib/paths';
import { eventually, type Spec } from './support/harness';
import { DUPS_QUEUE, LOCKS_QUEUE } from './support/seed-uniqueness';

export const phase = 'write';

const specs: Spec[] = [
  {
    name: 'release an orphaned lock after a confirmation naming its holder: gone from Redis and the list',
    run: async ({ newPage, redis, seeded }) => {
      const tp = await newPage();
      const { page } = tp;
      const { orphanLockKey, orphanHolderId } = seeded.uniqueness;
      await page.goto(paths.queueLocks(LOCKS_QUEUE));
      const lock = page.getByRole('table', { name: 'Unique locks' }).locator(`tbody[data-lock-key="${orphanLockKey}"]`);
      await lock.getByRole('button', { name: `Release lock ${orphanLockKey}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Its holder, task ${orphanHolderId}, no longer exists.`).waitFor();
      await dialog.getByRole('button', { name: 'Release lock' }).click();
      await page.getByText('Released the lock on cache:warm').waitFor();
      assert.equal(await redis.exists(orphanLockKey), 0);
      await lock.waitFor({ state: 'detached' });
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'a lock that changed owner after the page read it is not released; the dialog says why',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queueLocks(LOCKS_QUEUE));
      const lock = page.getByRole('table', { name: 'Unique locks' }).locator('tbody[data-lock-key]', { hasText: 'report:monthly' });
      const key = await lock.getAttribute('data-lock-key');
      assert.ok(key);
      await lock.getByRole('button', { name: /^Release lock / }).click();
      await redis.set(key, 'a-newer-task', 'KEEPTTL');
      await page.getByRole('dialog').getByRole('button', { name: 'Release lock' }).click();
      await page.getByRole('dialog').getByRole('alert').getByText(/lock changed owner: it is now held by task a-newer-task/).waitFor();
      assert.equal(await redis.get(key), 'a-newer-task', 'the new owner keeps its lock');
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'a running scan shows its progress and cancels with the same query',
    run: async ({ newPage }) => {
      const tp = await newPage();
      const { page } = tp;
      // Seeded queues scan in milliseconds: hold this one at 10 of 37 to see the running state.
      await page.route(/\/api\/queues\/[^/]+\/duplicates\?/, async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        const res = await route.fetch();
        const body = { ...((await res.json()) as object), complete: false, scanned: 10, finishedAt: null };
        await route.fulfill({ response: res, json: body });
      });
      await page.goto(paths.duplicates(DUPS_QUEUE, { states: 'pending,retry' }));
      await page.getByRole('button', { name: 'Find duplicates' }).click();
      await page.getByText(/10 of \d+ tasks · \d+%/).waitFor();
      assert.equal(await page.getByRole('progressbar', { name: 'Duplicate scan' }).getAttribute('aria-valuenow'), '10');
      const cancelled = page.waitForRequest((r) => r.method() === 'DELETE' && new URL(r.url()).searchParams.get('states') === 'pending,retry');
      await page.getByRole('button', { name: 'Cancel scan' }).click();
      await cancelled;
      await page.getByText('Find tasks enqueued more than once').waitFor();
      assert.ok(!new URL(page.url()).searchParams.has('scan'));
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'Duplicates: keep one of a group, then of every group (listing a group past 20 first); counts right afterwards, in Redis too',
    run: async ({ newPage, redis, seeded, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      const { welcome, receipt, ping, report, singles } = seeded.uniqueness.dups;
      await page.goto(paths.queue(DUPS_QUEUE));
      await page.getByRole('navigation', { name: 'Uniqueness' }).getByRole('link', { name: 'Duplicates' }).click();
      await page.waitForURL((u) => u.pathname === paths.duplicates(DUPS_QUEUE));
      await page.getByRole('button', { name: 'Find duplicates' }).click();
      const summary = page.getByTestId('scan-summary');
      await summary.getByText('3 exact groups · 1 near group · 29 surplus tasks').waitFor();
      const groups = page.getByRole('table', { name: 'Duplicate groups' });
      const group = (type: string, count: number) => groups.locator('tbody', { hasText: type }).filter({ has: page.getByRole('cell', { name: String(count), exact: true }) });
      await group('report:build', 3).getByText('not canonical because requestedAt varies').waitFor();

      await group('email:send', 4).getByRole('button', { name: /Show the tasks/ }).click();
      const tasks = page.getByRole('list', { name: 'Tasks of email:send' });
      assert.deepEqual(await tasks.getByRole('link').allInnerTexts(), welcome, 'every task, oldest first');
      await tasks.locator('li').first().getByText('kept by “keep one”').waitFor();
      await group('report:build', 3).getByRole('button', { name: /Show the tasks/ }).click();
      await screenshot(page, 'duplicates', { fullPage: true });

      await group('email:send', 4).getByRole('button', { name: /^Keep one/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Delete 3 duplicate tasks?').waitFor();
      await dialog.getByRole('button', { name: 'Delete 3' }).click();
      await page.getByRole('status').getByText('Deleted 3 duplicate tasks, keeping one of each of 1 group.').waitFor();
      for (const id of welcome.slice(1)) assert.equal(await redis.exists(k.taskKey(DUPS_QUEUE, id)), 0, `${id} deleted`);
      assert.equal(await redis.exists(k.taskKey(DUPS_QUEUE, welcome[0]!)), 1, 'the oldest stays');
      await summary.getByText('2 exact groups · 1 near group · 26 surplus tasks').waitFor();

      await page.getByRole('button', { name: 'Keep one of each · 3 groups' }).click();
      await dialog.getByText('Delete 28 duplicate tasks?').waitFor({ timeout: 15_000 });
      await dialog.getByText(/The oldest task of each of the 3 groups stays/).waitFor();
      await dialog.getByRole('button', { name: 'Delete 28' }).click();
      await page.getByRole('status').getByText('Deleted 28 duplicate tasks, keeping one of each of 3 groups.').waitFor();
      await summary.getByText('0 exact groups · 0 near groups · 0 surplus tasks').waitFor();
      await page.getByText('No duplicates', { exact: true }).waitFor();
      await page.getByText(/^6 tasks$/).waitFor();

      const kept = [welcome[0]!, receipt[0]!, ping[0]!, report[0]!, ...singles];
      const pending = await redis.lrange(k.pendingKey(DUPS_QUEUE), 0, -1);
      assert.deepEqual([...pending].sort(), [...kept].sort(), 'exactly the oldest of each group, and the singles, are left');
      assert.equal(await redis.zcard(k.retryKey(DUPS_QUEUE)), 0);
      await eventually('no stray task hashes', async () => (await redis.keys(`${k.queueKeyPrefix(DUPS_QUEUE)}t:*`)).length === kept.length);
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
