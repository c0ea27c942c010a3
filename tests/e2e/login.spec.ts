/**
 * Sign-in on a second server with ASYNQLENS_AUTH=login: a wrong then the right password, the
 * landing on the page that asked for it, the signed-in user in the sidebar; a viewer sees no
 * mutation controls and the API refuses its mutation with 403 forbidden_role (counted in the
 * audit page's refusals table); an operator pauses a queue and finds it on /audit; Sign out
 * returns to /login and the old cookie no longer opens the API; the launcher's peer address
 * cannot be forged to escape the sign-in throttle.
 */
import assert from 'node:assert/strict';
import * as k from '../../lib/asynq/keys';
import { hashPassword } from '../../lib/server/auth/scrypt-hash';
import { paths } from '../../lib/paths';
import { eventually, type Spec } from './support/harness';

export const phase = 'write';

const QUEUE = 'auth-e2e';
const PASSWORD = 'e2e password 4711';

const specs: Spec[] = [
  {
    name: 'login: wrong then right password, next page, viewer refused, operator audited, sign out',
    run: async ({ newPage, startApp, redis, screenshot }) => {
      await redis.sadd(k.ALL_QUEUES, QUEUE);
      await redis.del(k.pausedKey(QUEUE), 'asynqlens:audit', ...(await redis.keys('asynqlens:audit:{refusals}:*')));
      const [op, viewer] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
      // No ASYNQLENS_SESSION_SECRET: the per-process secret must be the same in proxy.ts and the routes.
      const app = await startApp({ ASYNQLENS_AUTH: 'login', ASYNQLENS_AUDIT: 'on', ASYNQLENS_USERS: `olga:operator:${op},vic:viewer:${viewer}` });
      try {
        const tp = await newPage({ baseUrl: app.url, width: 1280, height: 800 });
        const { page } = tp;
        await page.goto(paths.queue(QUEUE));
        await page.waitForURL((u) => u.pathname === '/login');
        assert.equal(new URL(page.url()).searchParams.get('next'), paths.queue(QUEUE));
        await page.getByLabel('User name').fill('olga');
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('alert').getByText('wrong user name or password').waitFor();
        await screenshot(page, 'login');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL((u) => u.pathname === paths.queue(QUEUE));
        const account = page.getByTestId('account');
        await account.getByText('olga').waitFor();
        await account.getByText('operator').waitFor();

        await page.getByRole('button', { name: 'Pause' }).click();
        await eventually('queue paused in Redis', async () => (await redis.exists(k.pausedKey(QUEUE))) === 1);
        await page.getByRole('link', { name: 'Audit log' }).click();
        const table = page.getByRole('table', { name: 'Audit log' });
        const row = table.locator('tbody tr').filter({ hasText: 'pause-queue' }).first();
        await row.getByText('olga').waitFor();
        await row.getByText(`queue=${QUEUE}`).waitFor();
        await row.getByText('done').waitFor();
        await screenshot(page, 'audit');

        const signedOut = (await tp.context.cookies()).find((c) => c.name === 'asynqlens_session')!;
        await account.getByRole('button', { name: 'Sign out', exact: true }).click();
        await page.waitForURL((u) => u.pathname === '/login');
        const copied = await fetch(`${app.url}/api/queues`, { headers: { cookie: `asynqlens_session=${signedOut.value}` } });
        assert.equal(copied.status, 401, 'a copy of the signed-out cookie is refused');
        await page.goto('/audit');
        await page.waitForURL((u) => u.pathname === '/login');

        const vp = await newPage({ baseUrl: app.url });
        await vp.page.goto(`/login?next=${encodeURIComponent(paths.queue(QUEUE))}`);
        await vp.page.getByLabel('User name').fill('vic');
        await vp.page.getByLabel('Password').fill(PASSWORD);
        await vp.page.getByRole('button', { name: 'Sign in' }).click();
        await vp.page.waitForURL((u) => u.pathname === paths.queue(QUEUE));
        await vp.page.getByTestId('account').getByText('viewer').waitFor();
        await vp.page.getByRole('heading', { name: QUEUE }).waitFor();
        assert.equal(await vp.page.getByRole('button', { name: 'Resume' }).count(), 0, 'a viewer is offered no Resume');
        const refused = await vp.page.evaluate(async (q) => {
          const res = await fetch(`/api/queues/${encodeURIComponent(q)}/resume`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
          return { status: res.status, body: (await res.json()) as { error: { code: string; message: string } } };
        }, QUEUE);
        assert.equal(refused.status, 403);
        assert.equal(refused.body.error.code, 'forbidden_role');
        assert.equal(await redis.exists(k.pausedKey(QUEUE)), 1, 'still paused');
        await vp.page.goto(paths.enqueue());
        await vp.page.getByText('the pre-check works, enqueueing does not').waitFor();
        assert.equal(await vp.page.getByRole('button', { name: 'Enqueue', exact: true }).isDisabled(), true, 'a viewer cannot press Enqueue');
        const records = (await redis.lrange('asynqlens:audit', 0, -1)).map((s) => JSON.parse(s) as { user: string; action: string; code: string | null; count: number });
        assert.deepEqual(
          records.map((r) => [r.user, r.action, r.code, r.count]),
          [['olga', 'pause-queue', null, 1]],
        );
        // The viewer's refusal is counted apart from the record of changes, and shown on /audit.
        await vp.page.goto('/audit');
        const refusal = vp.page.getByRole('table', { name: 'Refused requests' }).locator('tbody tr').filter({ hasText: 'vic' });
        await refusal.getByText('POST /api/queues/[qname]/resume').waitFor();
        await refusal.getByText('forbidden_role').waitFor();
        assert.equal((await refusal.locator('td').nth(3).textContent())?.trim(), '1');
        await vp.page.goto(paths.queue(QUEUE));

        // The session ends while the tab is open (cookie gone): the next poll's 401 takes the
        // viewer to the sign-in page, which will bring them back to this queue.
        await vp.context.clearCookies();
        await vp.page.waitForURL((u) => u.pathname === '/login', { timeout: 20_000 });
        assert.equal(new URL(vp.page.url()).searchParams.get('next'), paths.queue(QUEUE));
        assert.deepEqual([...tp.errors, ...vp.errors], []);

        // Sign out everywhere, from one of two browsers signed in as olga, ends the other's too.
        const signInAs = async (who: string) => {
          const p = await newPage({ baseUrl: app.url, width: 1280, height: 800 });
          await p.page.goto('/login');
          await p.page.getByLabel('User name').fill(who);
          await p.page.getByLabel('Password').fill(PASSWORD);
          await p.page.getByRole('button', { name: 'Sign in' }).click();
          await p.page.getByTestId('account').getByText(who).waitFor();
          return p;
        };
        const [one, two] = [await signInAs('olga'), await signInAs('olga')];
        const otherCookie = (await two.context.cookies()).find((c) => c.name === 'asynqlens_session')!;
        await one.page.getByTestId('account').getByRole('button', { name: 'Sign out everywhere' }).click();
        await one.page.waitForURL((u) => u.pathname === '/login');
        const other = await fetch(`${app.url}/api/queues`, { headers: { cookie: `asynqlens_session=${otherCookie.value}` } });
        assert.equal(other.status, 401, 'the other browser is signed out too');
        assert.deepEqual([...one.errors, ...two.errors], []);

        // The launcher stamps each request with its TCP peer: a client naming another peer (or
        // X-Forwarded-For, untrusted here) in every attempt is still one address to the throttle.
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) {
          const res = await fetch(`${app.url}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-asynqlens-peer': `198.51.100.${i}`, 'x-forwarded-for': `203.0.113.${i}` },
            body: JSON.stringify({ username: 'vic', password: `guess ${i}` }),
          });
          statuses.push(res.status);
        }
        assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
        assert.equal(await redis.exists('asynqlens:{login}:fails:addr:127.0.0.1'), 1, 'counted against the real peer');
      } finally {
        await app.stop();
        await redis.del(k.pausedKey(QUEUE), 'asynqlens:audit', ...(await redis.keys('asynqlens:audit:{refusals}:*')), ...(await redis.keys('asynqlens:{login}:*')), ...(await redis.keys('asynqlens:{session:*')));
        await redis.srem(k.ALL_QUEUES, QUEUE);
      }
    },
  },
];

export default specs;
