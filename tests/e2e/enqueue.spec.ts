/**
 * Issue 8: enqueue by hand. Each path the console explains: success with every option written
 * as asynq writes it, a duplicate (with the lock's holder), a task ID conflict, a unique TTL
 * under 1 s refused next to its field, clone-and-edit (and editing a scheduled payload), and a
 * batch of JSON lines with mixed results.
 */
import assert from 'node:assert/strict';
import * as k from '../../lib/asynq/keys';
import { paths } from '../../lib/paths';
import { eventually, type Spec } from './support/harness';
import { fillTask, findPending, newTaskId, readMsg, submit, text } from './support/enqueue-form';
import { ENQUEUE_QUEUE, SEARCH_QUEUE } from './support/seed-finder';

export const phase = 'write';

/** A queue the batch names on one line, instead of the default queue. */
const OTHER = 'e2e-batch-other';

const specs: Spec[] = [
  {
    name: 'success: from a queue page, every field written as asynq writes it; the link opens the task',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.queue(SEARCH_QUEUE));
      await page.getByRole('main').getByRole('link', { name: 'Enqueue' }).click();
      await page.waitForURL((u) => u.pathname === '/enqueue' && u.searchParams.get('queue') === SEARCH_QUEUE);
      assert.equal(await page.getByLabel('Queue', { exact: true }).inputValue(), SEARCH_QUEUE);
      await fillTask(page, { queue: 'e2e-brand-new', type: 'e2e:hello', payload: '{"b":1,"a":{"d":2,"c":3}}' });
      await page.getByText('A new queue').waitFor();
      await page.getByRole('button', { name: 'Canonicalise' }).click();
      assert.equal(await page.getByRole('textbox', { name: 'Payload', exact: true }).inputValue(), '{"a":{"c":3,"d":2},"b":1}');
      await page.getByLabel('Max retry').fill('3');
      await page.getByLabel('Timeout').fill('90s');
      await page.getByLabel('Retention').fill('1h');
      await page.getByRole('button', { name: 'Add header' }).click();
      await page.getByLabel('Header 1 name').fill('x-trace');
      await page.getByLabel('Header 1 value').fill('abc');
      await submit(page);
      const id = await newTaskId(page);
      const msg = await readMsg(redis, 'e2e-brand-new', id);
      assert.equal(await redis.hget(k.taskKey('e2e-brand-new', id), 'state'), 'pending');
      assert.equal(await redis.sismember(k.ALL_QUEUES, 'e2e-brand-new'), 1);
      assert.deepEqual(
        { type: msg.type, payload: text(msg.payload), retry: msg.retry, timeout: msg.timeout, retention: msg.retention, headers: msg.headers, uniqueKey: msg.uniqueKey },
        { type: 'e2e:hello', payload: '{"a":{"c":3,"d":2},"b":1}', retry: 3, timeout: 90, retention: 3600, headers: { 'x-trace': 'abc' }, uniqueKey: '' },
      );
      await page.getByTestId('enqueue-outcome').getByRole('link', { name: id }).click();
      await page.getByTestId('task-type').getByText('e2e:hello').waitFor();
      await page.getByText('x-trace').waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'duplicate: the pre-check names the holder before; the refusal names it and the time left',
    run: async ({ newPage, redis, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.enqueue({ queue: ENQUEUE_QUEUE }));
      await fillTask(page, { type: 'e2e:unique', payload: '{"k":1}', uniqueTtl: '1h' });
      const check = page.getByRole('region', { name: 'Pre-check' });
      await check.getByText(`asynq:{${ENQUEUE_QUEUE}}:unique:e2e:unique:`, { exact: false }).waitFor();
      await check.getByText('free', { exact: true }).first().waitFor();
      await submit(page);
      const holder = await newTaskId(page);
      await check.getByTestId('precheck-lock').getByRole('link', { name: holder }).waitFor();
      const out = await submit(page);
      assert.match(out, /Refused: duplicate_task/);
      const outcome = page.getByTestId('enqueue-outcome');
      await outcome.getByRole('link', { name: holder }).waitFor();
      assert.match(await outcome.getByTestId('lock-ends').innerText(), /It ends in (59m|1h)/);
      await screenshot(page, 'enqueue');
      const key = k.uniqueKey(ENQUEUE_QUEUE, 'e2e:unique', Buffer.from('{"k":1}'));
      assert.equal(await redis.get(key), holder);
      assert.ok((await redis.ttl(key)) > 3500);
      await outcome.getByRole('link', { name: holder }).click();
      await page.getByTestId('task-id').getByText(holder).waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'task ID conflict: the pre-check says it is taken; the refusal links the existing task',
    run: async ({ newPage, redis, seeded }) => {
      const tp = await newPage();
      const { page } = tp;
      const existing = seeded.finder.scheduledId;
      await page.goto(paths.enqueue({ queue: ENQUEUE_QUEUE }));
      await fillTask(page, { type: 'e2e:again', payload: '{}', taskId: existing });
      await page.getByTestId('precheck-task-id').getByText('scheduled').waitFor();
      const out = await submit(page);
      assert.match(out, /Refused: task_id_conflict/);
      await page.getByTestId('enqueue-outcome').getByRole('link', { name: existing }).waitFor();
      assert.equal((await readMsg(redis, ENQUEUE_QUEUE, existing)).type, 'report:monthly', 'the existing task is untouched');
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'a unique TTL under 1 s is refused with asynq’s words next to the field; nothing is written',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      const before = await redis.llen(k.pendingKey(ENQUEUE_QUEUE));
      await page.goto(paths.enqueue({ queue: ENQUEUE_QUEUE }));
      await fillTask(page, { type: 'e2e:ttl', payload: '{"t":1}', uniqueTtl: '0.5' });
      await page.getByRole('button', { name: 'Enqueue', exact: true }).click();
      await page.locator('[data-field="opt-uniqueTtl"]').getByText('Unique TTL cannot be less than 1s').waitFor();
      assert.equal(await page.getByLabel('Unique TTL').getAttribute('aria-invalid'), 'true');
      assert.equal(await redis.llen(k.pendingKey(ENQUEUE_QUEUE)), before);
      assert.equal(await redis.exists(k.uniqueKey(ENQUEUE_QUEUE, 'e2e:ttl', Buffer.from('{"t":1}'))), 0);
      // Fixing the field clears the message; a valid TTL goes through.
      await page.getByLabel('Unique TTL').fill('2s');
      assert.equal(await page.getByText('Unique TTL cannot be less than 1s').count(), 0);
      await submit(page);
      await newTaskId(page);
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'clone-and-edit: the form is filled from a task; the edited copy keeps its headers; a scheduled payload is edited in place',
    run: async ({ newPage, redis, seeded }) => {
      const tp = await newPage();
      const { page } = tp;
      const source = await findPending(redis, 'default', 'email:receipt');
      await page.goto(paths.task('default', source));
      await page.getByRole('link', { name: 'Clone' }).click();
      await page.waitForURL((u) => u.pathname === '/enqueue' && u.searchParams.get('clone') === source);
      await page.getByText('Cloned from').waitFor();
      assert.equal(await page.getByLabel('Type', { exact: true }).inputValue(), 'email:receipt');
      const payload = page.getByRole('textbox', { name: 'Payload', exact: true });
      assert.equal(await payload.inputValue(), '{"orderId":4711}');
      await payload.fill('{"orderId":4712}');
      const id = await (async () => { await submit(page); return newTaskId(page); })();
      assert.notEqual(id, source);
      const msg = await readMsg(redis, 'default', id);
      assert.deepEqual({ type: msg.type, payload: text(msg.payload), headers: msg.headers, retry: msg.retry }, {
        type: 'email:receipt', payload: '{"orderId":4712}', headers: { tenant: 'acme', 'trace-id': 'f00d' }, retry: 25,
      });
      assert.equal(text((await readMsg(redis, 'default', source)).payload), '{"orderId":4711}', 'the original is untouched');
      // A scheduled task's payload is edited where it is.
      const scheduled = seeded.finder.scheduledId;
      await page.goto(paths.task(ENQUEUE_QUEUE, scheduled));
      await page.getByRole('button', { name: 'Edit payload' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Payload', exact: true }).fill('{"month":"2026-12"}');
      await dialog.getByRole('button', { name: 'Save payload' }).click();
      await eventually('payload updated in Redis', async () => text((await readMsg(redis, ENQUEUE_QUEUE, scheduled)).payload) === '{"month":"2026-12"}');
      await page.getByTestId('payload-json').getByText('"2026-12"').waitFor();
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'clone of a unique task keeps every option, the unique TTL included, in human units: the first submit enqueues',
    run: async ({ newPage, redis }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.enqueue({ queue: ENQUEUE_QUEUE }));
      await fillTask(page, { type: 'e2e:clone-unique', payload: '{"c":1}', uniqueTtl: '1h' });
      await page.getByLabel('Timeout').fill('1800');
      await page.getByLabel('Retention').fill('3900');
      await submit(page);
      const source = await newTaskId(page);
      await page.goto(paths.task(ENQUEUE_QUEUE, source));
      const details = page.locator('section', { has: page.getByRole('heading', { name: 'Details' }) });
      await details.getByText('1h 5m').waitFor();
      assert.match(await details.innerText(), /Timeout\s+30m\b/);
      await page.getByRole('link', { name: 'Clone' }).click();
      await page.waitForURL((u) => u.pathname === '/enqueue' && u.searchParams.get('clone') === source);
      await page.getByText('Cloned from').waitFor();
      assert.deepEqual(
        { ttl: await page.getByLabel('Unique TTL').inputValue(), timeout: await page.getByLabel('Timeout').inputValue(), retention: await page.getByLabel('Retention').inputValue() },
        { ttl: '1h', timeout: '30m', retention: '1h 5m' },
      );
      assert.equal(await page.getByTestId('unique-ttl-guessed').count(), 0);
      // The original holds the lock of this payload: a clone with another payload is enqueued at once.
      await page.getByRole('textbox', { name: 'Payload', exact: true }).fill('{"c":2}');
      await submit(page);
      const id = await newTaskId(page);
      const msg = await readMsg(redis, ENQUEUE_QUEUE, id);
      assert.deepEqual({ timeout: msg.timeout, retention: msg.retention, unique: msg.uniqueKey !== '' }, { timeout: 1800, retention: 3900, unique: true });
      const pttl = await redis.pttl(msg.uniqueKey);
      assert.ok(pttl > 3590_000 && pttl <= 3600_000, `lock TTL ${pttl} ms`);
      assert.deepEqual(tp.errors, []);
    },
  },
  {
    name: 'batch: JSON lines with a result per line (enqueued, unique refused, not JSON, ID conflict)',
    run: async ({ newPage, redis, seeded, screenshot }) => {
      const tp = await newPage();
      const { page } = tp;
      await page.goto(paths.enqueue({ queue: ENQUEUE_QUEUE, tab: 'batch' }));
      const lines = [
        '{"type":"batch:one","payload":{"n":1}}',
        `{"type":"batch:two","payload":"plain","queue":"${OTHER}","options":{"maxRetry":2}}`,
        '{"type":"batch:unique","options":{"uniqueTtlSeconds":60}}',
        'not json',
        '',
        `{"type":"batch:conflict","options":{"taskId":"${seeded.finder.scheduledId}"}}`,
      ];
      await page.getByRole('textbox', { name: 'JSON lines' }).fill(lines.join('\n'));
      await page.getByRole('button', { name: 'Enqueue 5 lines' }).click();
      const table = page.getByRole('table', { name: 'Batch results' });
      await table.waitFor();
      await page.getByText('2 tasks enqueued').waitFor();
      const row = (line: number) => table.locator(`tr[data-line="${line}"]`);
      assert.match(await row(3).innerText(), /invalid_argument[\s\S]*batch enqueue does not support unique tasks/);
      assert.match(await row(4).innerText(), /invalid_line[\s\S]*Not JSON/);
      assert.match(await row(6).innerText(), /task_id_conflict/);
      await row(6).getByRole('link', { name: seeded.finder.scheduledId }).waitFor();
      const one = (await row(1).getByRole('link').innerText()).trim();
      const two = (await row(2).getByRole('link').innerText()).trim();
      assert.equal(text((await readMsg(redis, ENQUEUE_QUEUE, one)).payload), '{"n":1}');
      const second = await readMsg(redis, OTHER, two);
      assert.deepEqual({ type: second.type, payload: text(second.payload), retry: second.retry }, { type: 'batch:two', payload: 'plain', retry: 2 });
      assert.equal(await redis.hget(k.taskKey(ENQUEUE_QUEUE, one), 'state'), 'pending');
      await screenshot(page, 'enqueue-batch');
      assert.deepEqual(tp.errors, []);
    },
  },
];

export default specs;
