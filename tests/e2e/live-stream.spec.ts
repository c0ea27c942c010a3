/**
 * The live snapshot is pushed, and one browser holds one stream per view: two tabs of one
 * browser on the overview share a single GET /api/snapshot/stream (one tab holds it and relays
 * to the other), both show a change to Redis without polling, and when the holding tab closes
 * the other opens the stream and keeps updating.
 */
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { newTaskMessage } from '../../lib/asynq/testutil/factories';
import { seedPending } from '../../lib/asynq/testutil/seed';
import { eventually, type Spec } from './support/harness';

export const phase = 'write';

/** Streams opened and still open, and snapshot polls, across every tab of `context`. */
function watch(context: BrowserContext) {
  // holder: the tab whose request opened the latest stream (which tab wins the lock is a race).
  const seen: { opened: number; ended: number; polls: number; holder: Page | null } = { opened: 0, ended: 0, polls: 0, holder: null };
  const ended = () => (seen.ended += 1);
  context.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith('/api/snapshot/stream')) {
      seen.opened += 1;
      seen.holder = r.frame().page();
      r.response().then((res) => res?.finished()).then(ended, ended);
    } else if (path.endsWith('/api/snapshot')) seen.polls += 1;
  });
  return seen;
}

const pendingOf = (page: Page, queue: string) =>
  page.getByRole('table', { name: 'Queues' }).locator('tr', { has: page.getByRole('link', { name: queue, exact: true }) }).innerText();

const specs: Spec[] = [
  {
    name: 'two tabs of one browser share one snapshot stream and both update live; the other tab takes over when the holder closes',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const seen = watch(tp.context);
      const first = tp.page;
      await first.goto('/');
      await first.getByRole('table', { name: 'Queues' }).getByRole('link', { name: 'default', exact: true }).waitFor();
      const second = await tp.context.newPage();
      await second.goto('/');
      await second.getByRole('table', { name: 'Queues' }).getByRole('link', { name: 'default', exact: true }).waitFor();
      await eventually('one stream open for the two tabs', () => Promise.resolve(seen.opened - seen.ended === 1));
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(seen.opened - seen.ended, 1, `streams open: ${seen.opened} opened, ${seen.ended} ended`);

      const before = await pendingOf(second, 'default');
      const polls = seen.polls;
      await seedPending(redis, newTaskMessage({ type: 'live:ping', queue: 'default' }));
      await eventually('both tabs show the new pending task', async () => (await pendingOf(first, 'default')) !== before && (await pendingOf(second, 'default')) !== before, 15_000);
      assert.equal(seen.polls, polls, 'the change arrived without a poll');

      // Close the tab that holds the stream; the other must take it over.
      const holder = seen.holder;
      assert.ok(holder === first || holder === second, 'the stream was opened by one of the two tabs');
      const remaining = holder === first ? second : first;
      const opened = seen.opened;
      await holder.close();
      await eventually('the remaining tab opens the stream', () => Promise.resolve(seen.opened > opened && seen.holder === remaining));
      const again = await pendingOf(remaining, 'default');
      await seedPending(redis, newTaskMessage({ type: 'live:ping', queue: 'default' }));
      await eventually('the remaining tab shows the next change', async () => (await pendingOf(remaining, 'default')) !== again, 15_000);
      assert.deepEqual(tp.errors, [], 'page errors');
    },
  },
];

export default specs;
