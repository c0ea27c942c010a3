/**
 * Issues 8 and 10 on a read-only server with a routing file: the pre-check (a read) still
 * explains the lock, the task ID and which handler pattern receives the type; nothing that
 * writes is offered (enqueue, act on matches, clone, edit payload).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../../lib/paths';
import type { Spec } from './support/harness';

export const phase = 'read';

const specs: Spec[] = [
  {
    name: 'read-only + routing file: the pre-check gives the routing verdict; enqueue, act and clone are not offered',
    run: async ({ newPage, startApp }) => {
      const dir = await mkdtemp(join(tmpdir(), 'asynqlens-routing-'));
      const file = join(dir, 'routes.json');
      await writeFile(file, JSON.stringify(['email:', 'email:welcome', 'report:']));
      const app = await startApp({ ASYNQLENS_READ_ONLY: '1', ASYNQLENS_ROUTING_FILE: file });
      try {
        const tp = await newPage({ baseUrl: app.url });
        const { page } = tp;
        await page.goto(paths.enqueue({ queue: 'default' }));
        await page.getByText('the pre-check works, enqueueing does not').waitFor();
        assert.ok(await page.getByRole('button', { name: 'Enqueue', exact: true }).isDisabled());
        // The pre-check shows the fleet's routing verdict: the file's single list covers every queue.
        await page.getByLabel('Type', { exact: true }).fill('email:e2e-fresh');
        await page.locator('[data-testid="precheck-verdict"][data-verdict="handled"]').getByText('routing-file', { exact: false }).first().waitFor();
        await page.getByLabel('Type', { exact: true }).fill('image:e2e-fresh');
        await page.locator('[data-testid="precheck-verdict"][data-verdict="not_handled"]').getByTestId('enqueue-routing-warning').waitFor();
        await page.goto(paths.search([['payload', '4711']]));
        await page.getByRole('status', { name: 'Search progress' }).getByText('2 matches').waitFor();
        assert.equal(await page.getByRole('region', { name: 'Act on matches' }).count(), 0, 'no bulk actions read-only');
        await page.getByRole('table', { name: 'Search results' }).getByRole('link').first().click();
        await page.getByTestId('task-type').waitFor();
        for (const name of ['Clone', 'Edit payload']) assert.equal(await page.getByRole('main').getByText(name, { exact: true }).count(), 0, `no ${name}`);
        assert.deepEqual(tp.errors, []);
      } finally {
        await app.stop();
        await rm(dir, { recursive: true, force: true });
      }
    },
  },
];

export default specs;
