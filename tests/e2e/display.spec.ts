/**
 * Characters that reorder or hide text (a right-to-left override, a zero-width space, a BEL)
 * in queue names, task types and IDs, errors, headers, server hosts and payloads are shown as
 * visible escapes on every page that lists them, and never reach the page raw; links and the
 * copy button still use the raw name. A payload that is not UTF-8 shows as a hex dump.
 */
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { paths } from '../../lib/paths';
import type { Spec } from './support/harness';
import { TRIAGE_QUEUE } from './support/seed-triage';
import {
  BINARY_TASK_ID, DISPLAY_ERROR, DISPLAY_HOST, DISPLAY_PAYLOAD, DISPLAY_QUEUE, DISPLAY_TASK_ID, DISPLAY_TYPE,
  escaped, RAW_CHARS,
} from './support/seed-display';

export const phase = 'read';

const codePoints = (s: string) => [...s].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

/** Nothing the user can read on the page, nor its title, holds one of the raw characters. */
async function noRawCharacters(page: Page, where: string) {
  const { text, title } = await page.evaluate(() => ({ text: document.body.innerText, title: document.title }));
  for (const ch of RAW_CHARS) {
    assert.ok(!text.includes(ch), `${where}: the page text holds a raw ${codePoints(ch)}`);
    assert.ok(!title.includes(ch), `${where}: the title holds a raw ${codePoints(ch)}`);
  }
}

/** The element shows `raw` escaped, with each escape in its own marked span. */
async function showsEscaped(el: Locator, raw: string, where: string) {
  await el.getByText(escaped(raw), { exact: false }).first().waitFor();
  const marks = await el.locator('[data-escaped]').evaluateAll((els) => els.map((e) => e.getAttribute('data-escaped')));
  for (const cp of ['U+202E', 'U+200B']) assert.ok(marks.includes(cp), `${where}: ${cp} is marked (saw ${marks.join(', ')})`);
}

// Next streams metadata: after a client-side navigation the title lands a moment after the
// page body, so wait for it (bounded) and then compare, for a message that shows both.
async function titleIs(page: Page, expected: string) {
  await page.waitForFunction((t) => document.title === t, expected, { timeout: 5_000 }).catch(() => undefined);
  assert.equal(await page.title(), expected);
}

const specs: Spec[] = [
  {
    name: 'the overview, sidebar and queue page show an odd queue name escaped; its link reaches the raw queue',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto('/');
      const table = page.getByRole('table', { name: 'Queues' });
      const link = table.locator(`a[href="${paths.queue(DISPLAY_QUEUE)}"]`);
      await link.waitFor();
      assert.equal(await link.innerText(), escaped(DISPLAY_QUEUE));
      await showsEscaped(link, DISPLAY_QUEUE, 'overview row');
      assert.equal(await link.getAttribute('title'), escaped(DISPLAY_QUEUE), 'the tooltip is escaped too');
      const side = page.locator('aside').locator(`a[href="${paths.queue(DISPLAY_QUEUE)}"]`);
      assert.match(await side.first().innerText(), new RegExp(`^${escaped(DISPLAY_QUEUE).replace(/[\\.$]/g, '\\$&')}\\s`), 'sidebar entry');
      await noRawCharacters(page, 'overview');
      await link.scrollIntoViewIfNeeded();
      await screenshot(page, 'display-overview');

      await link.click();
      await page.waitForURL((u) => u.pathname === paths.queue(DISPLAY_QUEUE));
      assert.equal(await page.getByTestId('queue-name').innerText(), escaped(DISPLAY_QUEUE));
      await titleIs(page, `${escaped(DISPLAY_QUEUE)} · asynqlens`);
      await page.goto(paths.queue(DISPLAY_QUEUE, { state: 'retry' }));
      const retry = page.getByRole('table', { name: 'retry tasks' });
      const row = retry.locator('tbody tr').first();
      await row.waitFor();
      const text = await row.innerText();
      for (const raw of [DISPLAY_TASK_ID, DISPLAY_TYPE, DISPLAY_ERROR]) assert.ok(text.includes(escaped(raw)), `retry row shows ${escaped(raw)}: ${text}`);
      assert.ok(text.includes(escaped(DISPLAY_PAYLOAD.split('\n')[0]!)), 'payload preview escaped');
      await showsEscaped(row, DISPLAY_TYPE, 'retry row');
      await noRawCharacters(page, 'queue page');
      await screenshot(page, 'display-queue');
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'the task page escapes type, ID, queue, error, headers, payload text and the title; Copy ID copies the raw ID',
    run: async ({ newPage, baseUrl, screenshot }) => {
      const tp = await newPage();
      const { page, context } = tp;
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
      await page.goto(paths.task(DISPLAY_QUEUE, DISPLAY_TASK_ID));
      await showsEscaped(page.getByTestId('task-type'), DISPLAY_TYPE, 'task type');
      assert.equal(await page.getByTestId('task-type').innerText(), escaped(DISPLAY_TYPE));
      assert.equal(await page.getByTestId('task-id').innerText(), escaped(DISPLAY_TASK_ID));
      await titleIs(page, `${escaped(`${DISPLAY_TASK_ID} · ${DISPLAY_QUEUE}`)} · asynqlens`);
      const payload = page.getByTestId('payload-text');
      assert.equal(await payload.innerText(), escaped(DISPLAY_PAYLOAD), 'payload escaped, its line break kept');
      const details = page.locator('section', { has: page.getByRole('heading', { name: 'Details' }) });
      assert.ok((await details.innerText()).includes(escaped(DISPLAY_ERROR)), 'last error escaped');
      const headers = page.locator('section', { has: page.getByRole('heading', { name: /^Headers/ }) });
      const h = await headers.innerText();
      assert.ok(h.includes('x-\\u202Etenant') && h.includes('acme\\u200B\\u0007'), `headers escaped: ${h}`);
      assert.ok(h.includes('Headers exist since asynq v0.26.') && h.includes('drops them when it retries, archives or completes the task'), `the note on older asynq servers beside the headers: ${h}`);
      await noRawCharacters(page, 'task page');
      await screenshot(page, 'display-task');

      await page.getByRole('button', { name: 'Copy ID' }).click();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(copied, DISPLAY_TASK_ID, 'the copy button copies the raw ID');
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'a non-UTF-8 payload (ff fe 00 41) shows as a hex dump with offset, hex and ASCII',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.task(DISPLAY_QUEUE, BINARY_TASK_ID));
      const hex = page.getByTestId('payload-hex');
      await hex.waitFor();
      assert.match(await hex.innerText(), /^00000000 {2}ff fe 00 41 {2}.* {2}\.\.\.A$/m);
      await page.getByText('· binary').waitFor();
      await screenshot(page, 'display-hex');
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'search results, failures and servers show the odd names escaped',
    run: async ({ newPage, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.search([['queue', DISPLAY_QUEUE]]));
      const results = page.getByRole('table', { name: 'Search results' });
      const hit = results.locator('tbody tr', { hasText: escaped(DISPLAY_TYPE) });
      await hit.waitFor();
      const text = await hit.innerText();
      for (const raw of [DISPLAY_QUEUE, DISPLAY_TASK_ID, DISPLAY_ERROR]) assert.ok(text.includes(escaped(raw)), `search row shows ${escaped(raw)}: ${text}`);
      await noRawCharacters(page, 'search');
      await screenshot(page, 'display-search');

      await page.goto(paths.failures({ queue: DISPLAY_QUEUE }));
      const group = page.getByTestId('failure-group').filter({ hasText: 'by upstream' });
      await group.waitFor();
      await showsEscaped(group.locator('summary'), 'txt.sgol', 'failure signature');
      assert.ok((await group.locator('summary').innerText()).includes('\\u202Etxt.sgol\\u200B\\u0007'), 'signature escaped');
      await group.locator('summary').click();
      assert.ok((await group.innerText()).includes(escaped(DISPLAY_QUEUE)), 'its queue escaped');
      await noRawCharacters(page, 'failures');
      await screenshot(page, 'display-failures');

      await page.goto(paths.servers());
      const servers = page.getByRole('table', { name: 'Servers' });
      await servers.getByText(escaped(DISPLAY_HOST)).waitFor();
      await noRawCharacters(page, 'servers');
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'the Completed tab shows each task’s result and when asynq deletes it; the task page the same, with durations in human units',
    run: async ({ newPage }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(TRIAGE_QUEUE, { state: 'completed' }));
      const table = page.getByRole('table', { name: 'completed tasks' });
      await table.locator('tbody tr').first().waitFor();
      const headers = await table.locator('thead th').allTextContents();
      assert.ok(headers.includes('Result') && headers.includes('Kept until'), `headers: ${headers.join(' | ')}`);
      const row = table.locator('tbody tr').first();
      assert.equal(await row.getByTestId('task-result').innerText(), '{"refunded":30}');
      // Completed when the suite seeded it, with an hour's retention: deleted in under an hour
      // (how much under depends on how long the specs before this one took).
      assert.match(await row.getByTestId('task-kept-until').innerText(), /^in [1-5]?\dm/);
      assert.match((await row.getByTestId('task-kept-until').locator('time').getAttribute('title')) ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      await row.getByRole('link').first().click();
      const details = page.locator('section', { has: page.getByRole('heading', { name: 'Details' }) });
      await details.getByText('Kept until').waitFor();
      assert.match(await details.innerText(), /Kept until\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in [1-5]?\dm/);
      assert.match(await details.innerText(), /Retention\s+1h\b/);
      assert.match(await details.innerText(), /Timeout\s+30m\b/);
      const result = page.locator('section', { has: page.getByRole('heading', { name: 'Result' }) });
      await result.getByText('refunded').waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
