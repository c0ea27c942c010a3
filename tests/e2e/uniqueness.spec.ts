/**
 * Issue 6, reading: from a task's lock badge to its lock, its finding and its holder; the
 * queue's Locks tab and the Uniqueness page with their counts per finding. Data: support/
 * seed-uniqueness.ts (one lock per finding in LOCKS_QUEUE).
 */
import assert from 'node:assert/strict';
import type { LockDto, LockListDto } from '../../lib/contract/diagnostics';
import { apiPaths, paths } from '../../lib/paths';
import type { Spec, TestPage } from './support/harness';
import { LOCKS_QUEUE } from './support/seed-uniqueness';

export const phase = 'read';

function noErrors(tp: TestPage) {
  assert.deepEqual(tp.errors, [], 'page errors');
  assert.deepEqual(tp.dialogs, [], 'dialogs');
}

const specs: Spec[] = [
  {
    name: 'lock badge → the lock, its finding (held by an archived task) and the holder',
    run: async ({ newPage, seeded, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      const { archivedHolderId, archivedLockKey } = seeded.uniqueness;
      await page.goto(paths.queue(LOCKS_QUEUE, { state: 'archived' }));
      const row = page.getByRole('table', { name: 'archived tasks' }).locator('tbody tr', { hasText: 'invoice:send' });
      await row.getByRole('link', { name: 'Unique lock' }).click();
      await page.waitForURL((u) => u.searchParams.get('tab') === 'locks' && u.searchParams.get('key') === archivedLockKey);
      assert.equal(await page.getByRole('navigation', { name: 'Uniqueness' }).getByRole('link', { name: 'Locks' }).getAttribute('aria-current'), 'page');

      const lock = page.getByRole('region', { name: 'Selected lock' });
      await lock.getByText(archivedLockKey).waitFor();
      const finding = lock.locator('[data-finding="held_by_archived"]');
      await finding.waitFor();
      assert.match(await finding.innerText(), new RegExp(`Held by an archived task\\. Held by archived task ${archivedHolderId}, .*refused until \\d{4}-\\d\\d-\\d\\d [\\d:]+ UTC`));
      await lock.getByText('archived', { exact: true }).waitFor();
      assert.match(await lock.getByTestId('lock-ttl').innerText(), /^1h \d+m$/, 'two hours minus a little');

      const focused = page.locator('tbody[data-focused]');
      assert.equal(await focused.getAttribute('data-lock-key'), archivedLockKey, 'the table highlights the same lock');
      await page.getByRole('table', { name: 'Unique locks' }).locator('tbody[data-lock-key]').nth(5).waitFor();
      await screenshot(page, 'locks-tab', { fullPage: true });

      await lock.getByRole('link', { name: archivedHolderId }).click();
      await page.getByTestId('task-id').getByText(archivedHolderId).waitFor();
      const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Unique lock' }) });
      await panel.getByText('this task').waitFor();
      await panel.locator('[data-finding="held_by_archived"]').waitFor();
      await panel.getByRole('link', { name: 'View lock' }).click();
      await page.getByRole('region', { name: 'Selected lock' }).getByText(archivedLockKey).waitFor();
      noErrors(tp);
    },
  },
  {
    name: 'Locks tab: every finding in plain words, a retrying holder with its attempts, a ticking TTL, a filter in the URL',
    run: async ({ newPage, seeded }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queueLocks(LOCKS_QUEUE));
      const table = page.getByRole('table', { name: 'Unique locks' });
      const lockOf = (type: string) => table.locator('tbody[data-lock-key]', { hasText: type });
      await lockOf('digest:weekly').waitFor();
      assert.equal(await table.locator('tbody[data-lock-key]').count(), 6);
      assert.match(await lockOf('cache:warm').innerText(), new RegExp(`Task ${seeded.uniqueness.orphanHolderId}, which holds this lock, no longer exists`));
      assert.match(await lockOf('cache:warm').innerText(), /\bgone\b/);
      assert.match(await lockOf('report:monthly').innerText(), /completed, which releases its lock, yet the lock is still held/);
      const retry = await lockOf('payment:capture').innerText();
      assert.match(retry, /3\/10 · next in 1\dm/);
      assert.match(retry, /a duplicate can be enqueued from \d{4}-.*while this task is still waiting to retry/);
      assert.match(await lockOf('user:sync').innerText(), /no expiry[\s\S]*This lock has no expiry/);
      assert.doesNotMatch(await lockOf('digest:weekly').innerText(), /Release/, 'a healthy lock cannot be released');
      for (const type of ['invoice:send', 'cache:warm', 'report:monthly']) {
        await lockOf(type).getByRole('button', { name: /^Release lock / }).waitFor();
      }
      for (const type of ['payment:capture', 'user:sync']) assert.equal(await lockOf(type).getByRole('button').count(), 0, `${type}: holder may still run`);

      const ttl = lockOf('digest:weekly').getByTestId('lock-ttl');
      const before = await ttl.innerText();
      await page.waitForTimeout(2100);
      assert.notEqual(await ttl.innerText(), before, 'the TTL counts down');

      await page.getByRole('group', { name: 'Filter locks by finding' }).getByRole('button', { name: /^Orphaned/ }).click();
      await page.waitForURL((u) => u.searchParams.get('finding') === 'orphaned');
      await eventuallyCount(table.locator('tbody[data-lock-key]'), 2);
      noErrors(tp);
    },
  },
  {
    name: 'Uniqueness page: locks of every queue, counts per finding, filters by finding and queue',
    run: async ({ newPage, screenshot, baseUrl }) => {
      // What the cards must say, from the API itself (other specs' seeds may add locks too).
      const every = await readEveryLock(baseUrl);
      const expect = (code: string | null) => every.filter((l) => (code ? l.findings.some((f) => f.code === code) : l.findings.length === 0)).length;
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.uniqueness());
      const table = page.getByRole('table', { name: 'Unique locks' });
      await table.locator('tbody[data-lock-key]', { hasText: 'sync:account' }).waitFor();
      const cards = page.getByRole('group', { name: 'Locks by finding' });
      const card = (name: RegExp) => cards.getByRole('button', { name });
      const queueCount = new Set(every.map((l) => l.queue)).size;
      await page.getByText(`${every.length} locks`).waitFor();
      assert.match(await card(/^Locks/).innerText(), new RegExp(`\\b${every.length}\\b[\\s\\S]*in ${queueCount} queues`));
      for (const [name, code, atLeast] of [
        [/^Held by an archived task/, 'held_by_archived', 1],
        [/^Orphaned/, 'orphaned', 2],
        [/^Expires before retries end/, 'expires_before_retries_end', 1],
        [/^No expiry/, 'no_expiry', 1],
        [/^No finding/, null, 3],
      ] as const) {
        const n = expect(code);
        assert.ok(n >= atLeast, `the seed has at least ${atLeast} ${code ?? 'healthy'} locks`);
        assert.match(await card(name).innerText(), new RegExp(`\\b${n}\\b`), `${code ?? 'healthy'} card`);
      }
      const queues = await table.locator('tbody[data-lock-key] tr:first-child td:first-child').allInnerTexts();
      assert.deepEqual([...new Set(queues)].sort(), [...new Set(every.map((l) => l.queue))].sort());
      assert.equal(queues.length, every.length);
      await screenshot(page, 'uniqueness', { fullPage: true });

      await card(/^Held by an archived task/).click();
      await page.waitForURL((u) => u.searchParams.get('finding') === 'held_by_archived');
      await eventuallyCount(table.locator('tbody[data-lock-key]'), expect('held_by_archived'));
      await card(/^Held by an archived task/).click();
      await page.getByRole('combobox', { name: 'Queue' }).selectOption('default');
      await page.waitForURL((u) => u.searchParams.get('queue') === 'default' && !u.searchParams.has('finding'));
      await eventuallyCount(table.locator('tbody[data-lock-key]'), every.filter((l) => l.queue === 'default').length);
      assert.match(await table.innerText(), /report:daily/);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Uniqueness' }).waitFor();
      noErrors(tp);
    },
  },
  {
    name: 'read-only mode: locks and duplicates are shown, Release and "keep one" are not',
    run: async ({ newPage, startApp }) => {
      const app = await startApp({ ASYNQLENS_READ_ONLY: '1' });
      try {
        const tp = await newPage({ baseUrl: app.url });
        const { page } = tp;
        await page.goto(paths.queueLocks(LOCKS_QUEUE));
        await page.getByText('read-only', { exact: true }).waitFor();
        await page.getByRole('table', { name: 'Unique locks' }).locator('tbody[data-lock-key]', { hasText: 'cache:warm' }).waitFor();
        assert.equal(await page.getByRole('button', { name: /Release/ }).count(), 0);
        await page.goto(paths.duplicates('e2e-dups', { states: 'pending', scan: 1 }));
        await page.getByTestId('scan-summary').waitFor();
        await page.getByRole('table', { name: 'Duplicate groups' }).waitFor();
        assert.equal(await page.getByRole('button', { name: /Keep one/ }).count(), 0);
        const res = await fetch(`${app.url}${apiPaths.locks(LOCKS_QUEUE, { key: 'x' })}`, { method: 'DELETE' });
        assert.equal(res.status, 403);
      } finally {
        await app.stop();
      }
    },
  },
];

/** GET /api/locks page after page until the cursor ends, deduped by key (pages may be empty or repeat keys). */
async function readEveryLock(baseUrl: string): Promise<LockDto[]> {
  const byKey = new Map<string, LockDto>();
  let cursor: string | null = null;
  do {
    const page = (await (await fetch(`${baseUrl}${apiPaths.allLocks({ cursor })}`)).json()) as LockListDto;
    for (const l of page.locks) byKey.set(l.key, l);
    cursor = page.cursor;
  } while (cursor !== null);
  return [...byKey.values()];
}

async function eventuallyCount(loc: { count: () => Promise<number> }, n: number) {
  const deadline = Date.now() + 5000;
  while ((await loc.count()) !== n) {
    if (Date.now() > deadline) assert.equal(await loc.count(), n);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export default specs;
