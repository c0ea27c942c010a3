/**
 * The pattern tester under the fleet's verdicts: a pasted pattern set against every task type
 * in Redis, answered by the core's ServeMux — exact, prefix (with the warning when a prefix
 * catches a type only by text, `email` → `emailextra`), none (never "will fail": that is the
 * fleet's verdict, not one set's) — kept in the URL and in localStorage; an invalid set is
 * refused in asynq's words, on its line.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { paths } from '../../lib/paths';
import { eventually, type Spec } from './support/harness';

export const phase = 'read';

const PATTERNS = ['email:welcome', 'email', 'report:', 'billing:refund', 'image:resize'].join('\n');

const row = (page: Page, type: string) => page.locator(`tr[data-testid="route-row"][data-type=${JSON.stringify(type)}]`);
const box = (page: Page) => page.getByRole('textbox', { name: 'Patterns, one per line' });

const specs: Spec[] = [
  {
    name: 'a pasted pattern set routes every type: exact, prefix, none, and the emailextra warning',
    run: async ({ newPage }) => {
      const tp = await newPage({ height: 1100 });
      const { page } = tp;
      await page.goto(paths.routing());
      await box(page).fill(PATTERNS);
      await row(page, 'email:welcome').waitFor();
      const match = async (type: string) => row(page, type).getAttribute('data-match');
      assert.equal(await match('email:welcome'), 'exact');
      assert.equal(await match('email:receipt'), 'prefix');
      assert.equal(await match('report:new'), 'prefix');
      assert.equal(await match('emailextra'), 'prefix');
      assert.equal(await match('sms:send'), 'none');
      assert.doesNotMatch(await row(page, 'sms:send').innerText(), /will fail/);
      assert.match(await row(page, 'emailextra').innerText(), /"email"/);
      const warning = page.getByRole('note').filter({ hasText: '"email" catches "emailextra" only because the text starts the same' });
      await warning.waitFor();
      assert.equal(await page.getByRole('note').filter({ hasText: 'catches "email:receipt"' }).count(), 0, 'a prefix ending at ":" is not warned about');
      assert.match(await page.getByTestId('routing-summary').innerText(), /with no route in this set/);

      await page.getByRole('navigation', { name: 'Filter routes' }).getByRole('link', { name: /No route/ }).click();
      await row(page, 'email:welcome').waitFor({ state: 'detached' });
      await row(page, 'sms:send').waitFor();
      assert.equal(new URL(page.url()).searchParams.get('show'), 'none');
      await page.getByRole('navigation', { name: 'Filter routes' }).getByRole('link', { name: /^All/ }).click();
      await row(page, 'email:welcome').waitFor();

      await eventually('the patterns in the URL', () => Promise.resolve(new URL(page.url()).searchParams.get('patterns') === PATTERNS));
      await page.reload();
      assert.equal(await box(page).inputValue(), PATTERNS, 'kept in the URL');
      const fresh = await tp.context.newPage();
      await fresh.goto(paths.routing());
      await eventually('the saved patterns', async () => (await box(fresh).inputValue()) === PATTERNS);
      await row(fresh, 'emailextra').waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'an invalid pattern set is refused in asynq\'s words, on its line',
    run: async ({ newPage }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.routing({ patterns: 'email\nreport:\nemail' }));
      await page.getByText('Line 3: asynq: multiple registrations for email').first().waitFor();
      assert.equal(await box(page).getAttribute('aria-invalid'), 'true');
      await box(page).fill('email\nreport:');
      await row(page, 'emailextra').waitFor();
      assert.equal(await box(page).getAttribute('aria-invalid'), 'false');
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
