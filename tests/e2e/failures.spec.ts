/**
 * The failures page (issue 7): every retry and archived task grouped by error signature, the
 * handler-not-found groups first with the fleet's verdict per queue, what is still waiting and who listens;
 * a task that found no handler links to its group.
 */
import assert from 'node:assert/strict';
import * as k from '../../lib/asynq/keys';
import { paths } from '../../lib/paths';
import { eventually, type Spec } from './support/harness';

export const phase = 'read';

const specs: Spec[] = [
  {
    name: 'failures: not-found groups first, explained, with waiting tasks and listeners; other errors grouped',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage({ height: 1300 });
      const { page } = tp;
      await page.goto('/');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Failures' }).click();
      await page.waitForURL(/\/failures$/);
      const card = page.getByRole('region', { name: 'No handler for report:new' });
      await card.waitFor();
      // The queue's row gives the verdict the API gives, word for word (its `names` shown as code).
      const api = (await (await page.request.get('/api/routing/verdicts?queue=default&type=report:new')).json()) as { verdicts: { verdict: string; summary: string }[] };
      const verdict = card.getByTestId('verdict');
      await verdict.waitFor();
      assert.equal(await verdict.getAttribute('data-verdict'), api.verdicts[0]?.verdict);
      assert.equal(await verdict.getByTestId('verdict-summary').innerText(), api.verdicts[0]?.summary.replaceAll('`', ''));
      const queues = card.getByRole('list', { name: 'Queues with report:new tasks that found no handler' });
      await queues.getByRole('link', { name: 'worker-1.prod' }).waitFor(); // the server listening on default
      await eventually('the waiting tasks counted', async () => /Still waiting\s+none/i.test(await queues.innerText()));
      const perQueue = await queues.innerText();
      assert.match(perQueue, /Queue\s+default\s+Failed\s+5 archived/i);
      assert.match(perQueue, /worker-1\.prod pid 4242 · active/);
      const groups = page.locator('[data-testid="not-found-group"], [data-testid="failure-group"]');
      assert.equal(await groups.first().getAttribute('data-testid'), 'not-found-group', 'not-found groups come first');
      const webhook = page.getByTestId('failure-group').filter({ hasText: '503 Service Unavailable' });
      assert.equal(await webhook.count(), 1, 'the six 503s differ only in their URL numbers: one group');
      await webhook.locator('summary').click();
      await webhook.getByText('Latest message').waitFor();
      assert.ok((await webhook.getByRole('link').count()) > 1, 'samples link to task pages');
      await screenshot(page, 'failures', { fullPage: true });
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'a task that found no handler explains it and links to its group',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      const [id] = await redis.zrange(k.archivedKey('default'), 0, 0);
      assert.ok(id);
      await page.goto(paths.task('default', id));
      const note = page.getByTestId('task-not-found');
      await note.waitFor();
      assert.match(await note.innerText(), /The server that took this task had no handler for report:new/);
      await note.getByRole('link').click();
      await page.waitForURL((u) => u.pathname === '/failures' && u.searchParams.get('type') === 'report:new' && u.searchParams.get('queue') === 'default');
      await page.getByRole('region', { name: 'No handler for report:new' }).waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'read-only mode: the groups and the routing explainer work, the re-run is not offered',
    run: async ({ newPage, startApp }) => {
      const app = await startApp({ ASYNQLENS_READ_ONLY: '1' });
      try {
        const tp = await newPage({ baseUrl: app.url });
        const { page } = tp;
        await page.goto(paths.failures());
        const card = page.getByRole('region', { name: 'No handler for report:new' });
        await card.getByText('Re-running is off in read-only mode').waitFor();
        assert.equal(await page.getByRole('button', { name: /^Re-run/ }).count(), 0);
        await page.goto(paths.routing({ patterns: 'report:' }));
        await page.locator('tr[data-type="report:new"][data-match="prefix"]').waitFor();
        assert.deepEqual(tp.errors, []);
      } finally {
        await app.stop();
      }
    },
  },
];

export default specs;
