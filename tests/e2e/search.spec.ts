/**
 * Issue 10, read side: find tasks from anywhere (the shell's box and its shortcut), narrow
 * with the query language and chips, open a result, share the URL, save a search, and watch
 * (and stop) a long search; a payload field and a pasted ID prefix, typed, find exactly their
 * tasks, on the search page and in a queue tab's filter.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { paths } from '../../lib/paths';
import { eventually, type Spec, type TestPage } from './support/harness';
import { dropHaystack, HAYSTACK_QUEUE, ORDER_MARK, SEARCH_QUEUE, seedHaystack } from './support/seed-finder';

export const phase = 'read';

const results = (page: Page) => page.getByRole('table', { name: 'Search results' }).locator('tbody tr');
const matches = (page: Page, n: number) => page.getByRole('status', { name: 'Search progress' }).getByText(`${n} ${n === 1 ? 'match' : 'matches'}`, { exact: true }).waitFor();
const resultIds = async (page: Page) => (await results(page).locator('td:first-child').allInnerTexts()).map((s) => s.trim()).sort();
const box = (page: Page, name = 'Search tasks') => page.getByRole('combobox', { name });

function noErrors(tp: TestPage) {
  assert.deepEqual(tp.errors, [], 'page errors');
}

const specs: Spec[] = [
  {
    name: 'from the overview: "/" focuses the search box; the text is the query; words and chips narrow; a result opens',
    run: async ({ newPage, seeded, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/');
      await page.getByRole('table', { name: 'Queues' }).waitFor();
      // The table is in the server-rendered first paint, so it can show before the page has
      // hydrated and listens for "/": press it until the page answers (a "/" before that does nothing).
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
      await eventually('"/" to focus the search box', async () => {
        await page.keyboard.press('/');
        return (await focused()) === 'Search tasks';
      });
      assert.equal(await focused(), 'Search tasks');
      await page.keyboard.type(ORDER_MARK);
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === '/search' && u.searchParams.get('q') === ORDER_MARK);
      await matches(page, 11);
      await page.getByText('Searched all').waitFor();
      // Narrow: typed (state:retry), then through the "Add filter" form (header tenant = acme).
      await box(page).fill(`${ORDER_MARK} state:retry`);
      await page.keyboard.press('Enter');
      await matches(page, 6);
      await page.getByRole('button', { name: 'Add filter' }).click();
      await page.getByRole('combobox', { name: 'Filter kind' }).selectOption('header');
      await page.getByRole('textbox', { name: 'Header name' }).fill('tenant');
      await page.getByRole('textbox', { name: 'Equals' }).fill('acme');
      await page.getByRole('form', { name: 'Add filter' }).getByRole('button', { name: 'Add', exact: true }).click();
      await matches(page, 3);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('q'), `${ORDER_MARK} state:retry`);
      assert.equal(url.searchParams.get('header.tenant'), 'acme');
      const expected = seeded.finder.retryIds.filter((_, i) => i % 2 === 0).sort();
      assert.deepEqual(await resultIds(page), expected);
      for (const row of await results(page).all()) {
        assert.match(await row.innerText(), new RegExp(`${SEARCH_QUEUE}[\\s\\S]*retry[\\s\\S]*order:sync`));
      }
      await page.waitForTimeout(400); // the progress bar's width transition
      await screenshot(page, 'search');
      // Removing a chip widens again; the back button undoes a change.
      await page.getByRole('button', { name: 'Remove filter Header tenant = acme' }).click();
      await matches(page, 6);
      await page.goBack();
      await matches(page, 3);
      // Open a result (its ID links to the task page), then come back to the same results.
      const first = results(page).first().getByRole('link').first();
      const href = await first.getAttribute('href');
      assert.ok(href && expected.some((id) => href.endsWith(`/tasks/${id}`)), `result links to one of the matching tasks: ${href}`);
      await first.click();
      await page.getByTestId('task-type').getByText('order:sync').waitFor();
      await page.keyboard.press('Control+k');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Search tasks', 'Ctrl+K on the task page');
      await page.goBack();
      await matches(page, 3);
      noErrors(tp);
    },
  },
  {
    name: 'typed: user_id:42 and a pasted 8-character ID prefix find exactly their tasks; completions; an error marked at its word; a queue tab filters the same way',
    run: async ({ newPage, seeded, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.search());
      const input = box(page);
      await input.waitFor();
      await page.getByTestId('query-syntax').getByText('user_id:42', { exact: false }).waitFor();
      await input.pressSequentially('user_id:42');
      await page.keyboard.press('Enter');
      await matches(page, 2);
      assert.deepEqual(await resultIds(page), seeded.finder.retryIds.slice(0, 2).sort());
      // Completions come from the results on screen: a payload field and a task type.
      await input.fill('');
      await input.pressSequentially('reg');
      await page.getByRole('listbox', { name: 'Completions' }).getByRole('option', { name: 'region:' }).waitFor();
      await page.keyboard.press('Tab');
      assert.equal(await input.inputValue(), 'region:');
      await input.fill('');
      await input.pressSequentially('type:order:');
      await page.getByRole('option', { name: 'type:order:sync' }).waitFor();
      // The first 8 characters of an ID, as a log or the truncated column shows them.
      const target = seeded.finder.archivedIds[1]!;
      await input.fill(target.slice(0, 8));
      await page.keyboard.press('Enter');
      await matches(page, 1);
      assert.deepEqual(await resultIds(page), [target]);
      // A bad query: the server's 400 is marked at its word.
      await input.fill('user_id:42 amount>abc');
      await page.keyboard.press('Enter');
      const error = page.getByTestId('query-error');
      await error.locator('mark').getByText('amount>abc').waitFor();
      assert.match(await error.innerText(), /q: at 11, "amount>abc": a comparison needs a number/);
      await screenshot(page, 'search-query-error');
      // A queue tab's filter: the same language, scoped to the queue and the tab's state.
      await page.goto(paths.queue(SEARCH_QUEUE, { state: 'retry' }));
      const filter = box(page, 'Filter retry tasks');
      // Filled whole, not typed key by key: a completion list open under the caret could take
      // the Enter.
      await filter.fill('user_id:42');
      await filter.press('Enter');
      await matches(page, 2);
      assert.deepEqual(await resultIds(page), seeded.finder.retryIds.slice(0, 2).sort());
      await filter.fill(seeded.finder.retryIds[4]!.slice(0, 8));
      await page.keyboard.press('Enter');
      await matches(page, 1);
      assert.deepEqual(await resultIds(page), [seeded.finder.retryIds[4]]);
      // The filter stays as the tabs change: no archived task has that ID.
      await page.locator('nav a[href*="state=archived"]').first().click();
      await page.getByText('No task matches').waitFor();
      assert.equal(await box(page, 'Filter archived tasks').inputValue(), seeded.finder.retryIds[4]!.slice(0, 8));
      noErrors(tp);
    },
  },
  {
    name: 'the URL is the link: a new browser opens the same filter and the same results; saved searches',
    run: async ({ newPage }) => {
      const a = await newPage();
      await a.page.goto(paths.search([['queue', SEARCH_QUEUE], ['type', 'order:sync'], ['error', 'timeout']]));
      await matches(a.page, 7);
      const ids = await resultIds(a.page);
      const b = await newPage();
      await b.page.goto(a.page.url());
      await matches(b.page, 7);
      assert.deepEqual(await resultIds(b.page), ids);
      for (const chip of ['Queue', 'Type', 'Last error']) await b.page.getByRole('list', { name: 'Filters' }).getByText(chip, { exact: true }).waitFor();
      // Save it, leave, and come back through the saved list.
      await a.page.getByRole('button', { name: 'Save search' }).click();
      await a.page.getByRole('dialog').getByLabel('Name').fill('timeouts in orders');
      await a.page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
      await a.page.goto(paths.search());
      await a.page.getByText('Search every task').waitFor();
      await a.page.getByText('Saved searches').click();
      await a.page.getByRole('list', { name: 'Saved searches' }).getByRole('link', { name: 'timeouts in orders' }).click();
      await matches(a.page, 7);
      assert.deepEqual(await resultIds(a.page), ids);
      noErrors(a);
      noErrors(b);
    },
  },
  {
    name: 'a long search shows how far it got, stops on demand and continues from where it stopped',
    run: async ({ newPage, redis }) => {
      await seedHaystack(redis, 12_000);
      try {
        const tp = await newPage();
        const { page } = tp;
        // Slow each request down so there is time to press Stop between two of them.
        await page.route('**/api/tasks/search?**', async (route) => {
          await new Promise((r) => setTimeout(r, 700));
          await route.continue().catch(() => {}); // Stop may have aborted it meanwhile
        });
        await page.goto(paths.search([['queue', HAYSTACK_QUEUE], ['payload', 'needle']]));
        const status = page.getByTestId('search-status');
        await eventually('the first 5,000 read', async () => /5,000 of 12,000/.test(await status.innerText()));
        await page.getByRole('button', { name: 'Stop' }).click();
        await eventually('stopped', async () => /^Stopped after 5,000 of 12,000 tasks/.test(await status.innerText()));
        await page.waitForTimeout(1200);
        assert.match(await status.innerText(), /^Stopped after 5,000 of 12,000/, 'nothing more is read once stopped');
        await page.getByRole('button', { name: 'Continue' }).click();
        await eventually('complete', async () => /Searched all 12,000 tasks/.test(await status.innerText()), 15_000);
        await page.getByText('No task matches').waitFor();
        noErrors(tp);
      } finally {
        await dropHaystack(redis);
      }
    },
  },
];

export default specs;
