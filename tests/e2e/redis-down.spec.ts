/**
 * Redis going away shows a banner within a poll (the API answers 503 redis_unavailable); Redis
 * coming back clears it with no reload. Checked on the server-rendered overview and on a
 * client-rendered (TanStack) page.
 */
import assert from 'node:assert/strict';
import type { Spec } from './support/harness';

export const phase = 'disruptive';

const specs: Spec[] = [
  {
    name: 'the banner appears when Redis stops and goes away when it is back',
    run: async ({ newPage, stopRedis, restartRedis, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/');
      await page.getByRole('table', { name: 'Queues' }).waitFor();
      assert.equal(await page.getByTestId('redis-banner').count(), 0);
      await stopRedis();
      const banner = page.getByTestId('redis-banner');
      await banner.waitFor({ timeout: 20_000 });
      assert.match(await banner.innerText(), /Redis is unreachable/);
      await page.getByText('Could not load the queues').waitFor();
      await screenshot(page, 'redis-down');
      await restartRedis();
      await banner.waitFor({ state: 'detached', timeout: 20_000 });
      await page.getByRole('table', { name: 'Queues' }).getByRole('link', { name: 'default', exact: true }).waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'on a queue page the banner appears and clears too, and the last rows stay on screen',
    run: async ({ newPage, stopRedis, restartRedis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/queues/webhooks?state=retry');
      const rows = page.getByRole('table', { name: 'retry tasks' }).locator('tbody tr');
      await rows.first().waitFor();
      await stopRedis();
      const banner = page.getByTestId('redis-banner');
      await banner.waitFor({ timeout: 20_000 });
      assert.equal(await rows.count(), 6, 'the last page received stays visible');
      await restartRedis();
      await banner.waitFor({ state: 'detached', timeout: 20_000 });
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
