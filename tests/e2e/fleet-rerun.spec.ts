/**
 * The incident walk on a real Go asynq fleet, in Chromium. An older `billing` release (asynq
 * v0.24.1, no `invoice:refund` handler) runs alone on `e2e-fleet` and fails refunds with Go's own
 * `handler not found` (archived, and in retry); then the rest of the fleet starts (v0.26.0): a
 * `reports` group on its queue and on `e2e-fleet` (it routes `invoice:`), and a `notify` group
 * with a group aggregator. The routing file declares the three groups. The overview's banner
 * gives the conflict and names the older server; Failures and Routing say the same; the older
 * release is retired, the re-run moves exactly what the confirmation counted, the new billing
 * release starts, the fleet completes the refunds, and the banner no longer lists the type.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k from '../../lib/asynq/keys';
import { eventually, type Spec } from './support/harness';
import { goEnqueue, startGoServer, type GoEnqueue, type GoServer } from './support/go-fleet';

export const phase = 'write';

const Q = 'e2e-fleet';
const REPORTS = 'e2e-fleet-reports';
const NOTIFY = 'e2e-fleet-notify';
const TYPE = 'invoice:refund';
const GROUPS = [
  { name: 'billing', queues: [Q], patterns: ['invoice:', 'billing:charge'] },
  { name: 'reports', queues: [REPORTS, Q], patterns: ['report:', 'invoice:'] },
  { name: 'notify', queues: [NOTIFY], patterns: ['notify:batch'], emits: ['notify:batch'] },
];
const kept = { retentionSeconds: 3600 };
const tasks = (n: number, type: string, queue: string, options: GoEnqueue['options'] = {}): GoEnqueue[] =>
  Array.from({ length: n }, () => ({ type, queue, options: { ...kept, ...options } }));

const bannerType = `[data-testid="banner-type"][data-type=${JSON.stringify(TYPE)}]`;

interface Verdicts {
  verdicts: { queue: string; taskType: string; verdict: string; summary: string; evidence: { kind: string }[] }[];
  complete: boolean;
}

const specs: Spec[] = [
  {
    name: 'a Go fleet: banner → Failures → Routing agree on the conflict → old release retired, re-run, new release → banner gone',
    timeoutMs: 180_000,
    run: async ({ newPage, redis, startApp, screenshot }) => {
      const dir = await mkdtemp(join(tmpdir(), 'asynqlens-fleet-e2e-'));
      const file = join(dir, 'routing.json');
      await writeFile(file, JSON.stringify({ groups: GROUPS }, null, 2));
      const go: GoServer[] = [];
      const app = await startApp({ ASYNQLENS_ROUTING_FILE: file });
      try {
        // The older billing release, alone on the queue: Go fails every refund it takes.
        const old = await startGoServer(redis, 'v0.24.1', ['--queues', `${Q}:1`, '--handle', 'invoice:create', '--handle', 'billing:charge', '--retry-delay-seconds', '3600']);
        go.push(old);
        goEnqueue(redis, [...tasks(3, TYPE, Q, { maxRetry: 0 }), ...tasks(2, TYPE, Q, { maxRetry: 1 }), ...tasks(2, 'invoice:create', Q)]);
        await eventually('Go to archive 3 refunds and retry 2', async () => (await redis.zcard(k.archivedKey(Q))) === 3 && (await redis.zcard(k.retryKey(Q))) === 2, 30_000);
        const [archived] = await redis.zrange(k.archivedKey(Q), 0, 0);
        assert.match((await redis.hgetBuffer(k.taskKey(Q, archived!), 'msg'))!.toString('latin1'), /handler not found for task "invoice:refund"/, 'the failure is Go\'s own');

        // The rest of the fleet (the current release): reports on its queue and on the billing queue, notify with its aggregator.
        go.push(await startGoServer(redis, 'v0.26.0', ['--queues', `${REPORTS}:1,${Q}:1`, '--handle', 'report:', '--handle', 'invoice:']));
        go.push(await startGoServer(redis, 'v0.26.0', ['--queues', `${NOTIFY}:1`, '--handle', 'notify:batch', '--aggregate-into', 'notify:batch', '--group-max-size', '3', '--group-grace-seconds', '600']));
        goEnqueue(redis, [...tasks(2, 'report:daily', REPORTS), ...tasks(2, 'notify:event', NOTIFY, { group: 'user:1' })]);
        await eventually('the reports to complete', async () => (await redis.zcard(k.completedKey(REPORTS))) === 2, 30_000);

        const tp = await newPage({ baseUrl: app.url, height: 1000 });
        const { page } = tp;
        await page.goto('/');
        const callout = page.getByTestId('not-found-callout');
        const line = callout.locator(bannerType);
        await eventually('the banner gives the conflict', async () => {
          if ((await line.getByTestId('verdict').getAttribute('data-verdict', { timeout: 5000 }).catch(() => null)) === 'conflict') return true;
          await page.reload({ waitUntil: 'load' });
          return false;
        }, 45_000);
        const summary = await line.getByTestId('verdict-summary').innerText();
        assert.match(summary, /^Declared by group billing and declared by group reports, but since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC a server on e2e-fleet without this handler has failed 5 tasks \(3 archived, 2 in retry\): a server from an older release may still run/);
        // Go servers publish no routes; the oldest on the queue, the older release, is named first, by its own pid and ID.
        assert.match(summary, new RegExp(`the servers on e2e-fleet that publish no routes, oldest first: \\S+ pid ${old.pid} \\(ID \\w{8}, started`), summary);

        await callout.getByRole('link', { name: TYPE, exact: true }).click();
        await page.waitForURL((u) => u.pathname === '/failures' && u.searchParams.get('queue') === Q);
        const card = page.getByRole('region', { name: `No handler for ${TYPE}` });
        await card.getByTestId('verdict').waitFor();
        assert.equal(await card.getByTestId('verdict').getAttribute('data-verdict'), 'conflict');
        assert.equal(await card.getByTestId('verdict-summary').innerText(), summary, 'Failures says what the banner says');

        await card.getByRole('link', { name: 'see its routing' }).click();
        await page.waitForURL((u) => u.pathname === '/routing' && u.searchParams.get('type') === TYPE);
        const row = page.locator(`[data-testid="verdict-row"][data-queue=${JSON.stringify(Q)}][data-type=${JSON.stringify(TYPE)}]`);
        await row.waitFor();
        assert.equal(await row.getByTestId('verdict').getAttribute('data-verdict'), 'conflict');
        assert.equal(await row.getByTestId('verdict-summary').innerText(), summary, 'Routing says what the banner says');
        const evidence = row.getByTestId('verdict-evidence');
        await evidence.waitFor();
        assert.equal(await evidence.locator('[data-kind="handler_not_found"]').count(), 1);
        assert.equal(await evidence.locator('[data-kind="declared_route"]').count(), 2);
        assert.match(await row.innerText(), /Since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(.+ ago\)/);
        await screenshot(page, 'routing');
        // The rest of the fleet as the same engine sees it: a group aggregator, a handled type.
        const all = (await (await page.request.get('/api/routing/verdicts?wait=5000')).json()) as Verdicts;
        const of = (q: string, t: string) => all.verdicts.find((v) => v.queue === q && v.taskType === t)?.verdict;
        assert.equal(of(NOTIFY, 'notify:event'), 'aggregated');
        assert.equal(of(REPORTS, 'report:daily'), 'handled');

        // The fix: retire the older release, then re-run.
        await old.stop();
        go.splice(go.indexOf(old), 1);
        await page.goBack();
        await page.waitForURL((u) => u.pathname === '/failures');
        await card.getByRole('button', { name: 'Re-run 5 tasks' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByText(`Re-run 5 tasks of ${TYPE}?`).waitFor();
        assert.match(await dialog.getByTestId('rerun-count').innerText(), /Counted just now: the 5 tasks/);
        await dialog.getByRole('button', { name: 'Re-run 5' }).click();
        const result = dialog.getByTestId('rerun-result');
        await result.waitFor();
        assert.match(await result.innerText(), /Moved 5 tasks to pending \(3 of 3 archived, 2 of 2 retry\)/);

        // The new billing release, which handles the type, joins; the fleet completes the refunds.
        go.push(await startGoServer(redis, 'v0.26.0', ['--queues', `${Q}:1`, '--handle', 'invoice:', '--handle', 'billing:charge']));
        await eventually('Go to complete the 5 re-run refunds', async () => {
          const left = (await redis.llen(k.pendingKey(Q))) + (await redis.llen(k.activeKey(Q))) + (await redis.zcard(k.archivedKey(Q))) + (await redis.zcard(k.retryKey(Q)));
          return left === 0 && (await redis.zcard(k.completedKey(Q))) === 7;
        }, 30_000);

        await dialog.getByRole('button', { name: 'Close' }).click();
        await eventually('the group is gone from Failures', async () => (await card.count()) === 0, 30_000);
        await page.goto('/');
        await eventually('the banner no longer lists the type', async () => {
          await page.reload({ waitUntil: 'load' }); // the banner streams in before the document ends
          return (await page.locator(bannerType).count()) === 0;
        }, 45_000);
        // The overview's table follows: nothing left in e2e-fleet but the 7 completed tasks.
        const fleetRow = page.getByRole('table', { name: 'Queues' }).getByRole('row').filter({ has: page.getByRole('cell', { name: Q, exact: true }) });
        await eventually('the overview shows the refunds completed', async () => {
          if (/^e2e-fleet\s+0\s+0\s+0\s+0\s+0\s+7\s/.test(await fleetRow.innerText({ timeout: 2000 }))) return true;
          await page.reload({ waitUntil: 'load' });
          return false;
        }, 30_000);
        await eventually('Routing calls it handled', async () => {
          const d = (await (await page.request.get(`/api/routing/verdicts?wait=5000&queue=${Q}&type=${encodeURIComponent(TYPE)}`)).json()) as Verdicts;
          const v = d.verdicts[0];
          return v?.verdict === 'handled' && v.evidence.some((e) => e.kind === 'seen_completed');
        }, 30_000);
        assert.deepEqual(tp.errors, []);
      } finally {
        await Promise.all(go.map((s) => s.stop()));
        await app.stop();
        await rm(dir, { recursive: true, force: true });
      }
    },
  },
];

export default specs;
