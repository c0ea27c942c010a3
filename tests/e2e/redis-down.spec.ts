/**
 * Redis going away shows a banner within a poll (the API answers 503 redis_unavailable); Redis
 * coming back clears it with no reload. Checked on the server-rendered overview and on a
 * client-rendered (TanStack) page. The banner carries the API's own words: the address, and
 * "unreachable" for a stopped Redis or "stalled" for one that accepts connections but does
 * not answer (CLIENT PAUSE here; DEBUG is off in the suite's redis-server).
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
      assert.match(await banner.innerText(), /Redis at 127\.0\.0\.1:\d+(\/\d+)? is unreachable/);
      assert.equal(await banner.getAttribute('data-reason'), 'unreachable');
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
  {
    name: 'a stalled Redis shows "stalled" with the address, polling goes on, and the banner clears by itself',
    run: async ({ newPage, startApp, redis, screenshot }) => {
      // A 1 s command timeout so the stall shows within a poll or two.
      const app = await startApp({ ASYNQLENS_COMMAND_TIMEOUT_MS: '1000' });
      const pauser = redis.duplicate();
      try {
        const tp = await newPage({ baseUrl: app.url });
        const { page } = tp;
        await page.goto('/');
        await page.getByRole('table', { name: 'Queues' }).waitFor();
        const banner = page.getByTestId('redis-banner');
        assert.equal(await banner.count(), 0);
        await pauser.call('CLIENT', 'PAUSE', '7000', 'ALL');
        const pausedAt = Date.now();
        await banner.waitFor({ timeout: 15_000 });
        assert.match(await banner.innerText(), /Redis at 127\.0\.0\.1:\d+(\/\d+)? is stalled: not answering within 1000 ms/);
        assert.equal(await banner.getAttribute('data-reason'), 'stalled');
        await screenshot(page, 'redis-stalled');
        await banner.waitFor({ state: 'detached', timeout: 20_000 });
        assert.ok(Date.now() - pausedAt >= 6000, 'the banner stayed while Redis was paused');
        await page.getByRole('table', { name: 'Queues' }).getByRole('link', { name: 'default', exact: true }).waitFor();
        assert.deepEqual(tp.errors, []);
      } finally {
        pauser.disconnect();
        await app.stop();
      }
    },
  },
];

export default specs;
