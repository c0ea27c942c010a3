/**
 * Names that are hard to put in a URL, view state carried by the URL, and the keyboard.
 */
import assert from 'node:assert/strict';
import { paths } from '../../lib/paths';
import type { Spec } from './support/harness';
import { ODD_QUEUES } from './support/seed-extra';

export const phase = 'read';

const specs: Spec[] = [
  {
    name: '"low priority": Next decodes the name exactly once; the page shows its paused task',
    run: async ({ newPage }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/');
      await page.getByRole('table', { name: 'Queues' }).getByRole('link', { name: 'low priority', exact: true }).click();
      await page.waitForURL(/\/queues\/low%20priority$/);
      assert.equal(await page.getByTestId('queue-name').innerText(), 'low priority');
      await page.getByText('paused', { exact: true }).first().waitFor();
      await page.getByRole('table', { name: 'pending tasks' }).getByText('misc:ping').waitFor();
      await page.getByRole('table', { name: 'pending tasks' }).getByRole('link').first().click();
      await page.getByTestId('task-type').getByText('misc:ping').waitFor();
      assert.match(page.url(), /\/queues\/low%20priority\/tasks\//);
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'odd queue names (a/b, unicode, a literal %25, a colon) round-trip',
    run: async ({ newPage }) => {
      const tp = await newPage();
      const { page } = tp;
      for (const q of ODD_QUEUES) {
        await page.goto(paths.queue(q));
        await page.getByRole('table', { name: 'pending tasks' }).getByText('odd:name').waitFor();
        assert.equal(await page.getByTestId('queue-name').innerText(), q);
        await page.getByRole('table', { name: 'pending tasks' }).getByRole('link').first().click();
        await page.getByTestId('payload-json').getByText(JSON.stringify(q)).waitFor();
      }
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'state, page and size live in the URL',
    run: async ({ newPage }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/queues/default?state=scheduled&page=2&size=10');
      await page.getByText('11–12 of 12').waitFor();
      assert.equal(await page.getByRole('link', { name: /Scheduled/ }).getAttribute('aria-current'), 'page');
      await page.getByRole('navigation', { name: 'Task states' }).getByRole('link', { name: /Retry/ }).click();
      await page.waitForURL((u) => u.searchParams.get('state') === 'retry' && !u.searchParams.has('page'));
      await page.getByRole('table', { name: 'retry tasks' }).or(page.getByText('No retry tasks')).first().waitFor();
      await page.goBack();
      await page.getByText('11–12 of 12').waitFor();
      await page.goto('/queues/notifications?state=aggregating&group=tenant-globex');
      await page.getByText('1–2 of 2').waitFor();
      await page.getByRole('combobox', { name: 'Aggregation group' }).selectOption('');
      await page.getByText('1–6 of 6').waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'keyboard: j/k move, x selects, Enter opens',
    run: async ({ newPage }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/queues/default?state=scheduled');
      const rows = page.getByRole('table', { name: 'scheduled tasks' }).locator('tbody tr');
      await rows.first().waitFor();
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('k');
      await page.keyboard.press('ArrowDown');
      assert.equal(await rows.nth(1).getAttribute('data-active'), 'true');
      await page.keyboard.press('x');
      assert.equal(await rows.nth(1).getAttribute('aria-selected'), 'true');
      await page.getByText('1 task selected').waitFor();
      const id = await rows.nth(1).getByRole('link').first().innerText();
      await page.keyboard.press('Enter');
      await page.getByTestId('task-id').getByText(id).waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'an unknown queue and an unknown task say "not found"',
    run: async ({ newPage }) => {
      const tp = await newPage();
      await tp.page.goto(paths.queue('no-such-queue'));
      await tp.page.getByText('Queue “no-such-queue” not found').waitFor();
      await tp.page.goto(paths.task('default', 'no-such-task'));
      await tp.page.getByText('Task not found').waitFor();
    },
  },
];

export default specs;
