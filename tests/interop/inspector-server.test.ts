/**
 * The read benchmark's Go baseline, `interop-bin serve-inspector` (tests/go/inspectorserver.go),
 * must answer the reads it is timed on with the same data our API answers on the same Redis:
 * the same queues and sizes, the same page of tasks in the same order, the same task; and a
 * missing task or a bad state as an error. Otherwise the bench would time two servers doing
 * different work.
 *
 * Needs Go (or ASYNQLENS_GO_BIN): without it the suite is skipped loudly, and fails under CI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoute } from '../support/call-route';
import { consoleRoutes, type ConsoleRoutes } from '../support/console-routes';
import { testRedisUrl, useTestRedis } from '../support/test-redis';
import { goHarness, redisArgs, type GoProcess } from './go-harness';

const DB = 13;
const BIG = 'inspector-http:big';
const SMALL = 'inspector-http:small';
const BIG_TASKS = 45;

const asynqGo = goHarness('inspector-server');
asynqGo.requireGo('Go Inspector HTTP server');

const id = (i: number) => `big-${String(i).padStart(3, '0')}`;
const enc = encodeURIComponent;

interface GoTask {
  id: string;
  queue: string;
  type: string;
  state: string;
}

describe.skipIf(asynqGo.noGo)('serve-inspector, the read bench\'s Go baseline', () => {
  let server: GoProcess;
  let base: string;
  let routes: ConsoleRoutes;

  const goGet = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    await useTestRedis(DB, { flushEach: false });
    const requests = [
      ...Array.from({ length: BIG_TASKS }, (_, i) => ({ queue: BIG, type: 'bench:read', payloadBase64: null, options: { taskId: id(i + 1) } })),
      { queue: SMALL, type: 'bench:later', payloadBase64: null, options: { taskId: 'later', processInSeconds: 3600 } },
    ];
    const enqueued = await asynqGo.json<{ ok: boolean }[]>('enqueue-many', redisArgs(DB), { stdin: requests });
    expect(enqueued.every((r) => r.ok)).toBe(true);
    server = await asynqGo.start('serve-inspector', [...redisArgs(DB), '--addr', '127.0.0.1:0']);
    const addr = /^LISTENING (\S+)$/m.exec(server.stdout())?.[1];
    expect(addr).toBeDefined();
    base = `http://${addr}`;
    process.env.REDIS_URL = testRedisUrl(DB);
    // After REDIS_URL is set: the modules read it on their first request.
    routes = await consoleRoutes();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('lists the queues with the sizes our queue list reports', async () => {
    const go = await goGet('/api/queues');
    const ours = await callRoute(routes.queues.GET, '/api/queues');
    expect(go.status).toBe(200);
    const sizes = (qs: { queue: string; size: number }[]) => Object.fromEntries(qs.map((q) => [q.queue, q.size]));
    const goQueues = go.body.queues as { queue: string; size: number }[];
    expect(sizes(goQueues)).toEqual({ [BIG]: BIG_TASKS, [SMALL]: 1 });
    expect(sizes(ours.body.queues)).toEqual(sizes(goQueues));
  });

  it.each([
    [1, 20],
    [3, 20],
    [2, 7],
  ])('answers pending page %i of size %i with our page\'s tasks, in order', async (page, size) => {
    const path = `/api/queues/${enc(BIG)}/tasks?state=pending&page=${page}&size=${size}`;
    const go = await goGet(path);
    const ours = await callRoute(routes.tasks.GET, path, { qname: BIG });
    expect(go.status).toBe(200);
    const goIds = (go.body.tasks as GoTask[]).map((t) => t.id);
    const expected = Array.from({ length: BIG_TASKS }, (_, i) => id(i + 1)).slice((page - 1) * size, page * size);
    expect(goIds).toEqual(expected);
    expect((ours.body.tasks as { id: string }[]).map((t) => t.id)).toEqual(goIds);
  });

  it('answers other states through their own list call', async () => {
    const go = await goGet(`/api/queues/${enc(SMALL)}/tasks?state=scheduled&page=1&size=20`);
    expect((go.body.tasks as GoTask[]).map((t) => [t.id, t.state])).toEqual([['later', 'scheduled']]);
  });

  it('answers one task with what our detail route reports', async () => {
    const path = `/api/queues/${enc(BIG)}/tasks/${id(23)}`;
    const go = await goGet(path);
    const ours = await callRoute(routes.task.GET, path, { qname: BIG, taskId: id(23) });
    expect(go.status).toBe(200);
    const t = go.body as unknown as GoTask;
    expect([t.id, t.queue, t.type, t.state]).toEqual([id(23), BIG, 'bench:read', 'pending']);
    expect([ours.body.id, ours.body.queue, ours.body.type, ours.body.state]).toEqual([t.id, t.queue, t.type, t.state]);
  });

  it('answers a missing task 404 and a bad state 400, and its liveness route without Redis', async () => {
    expect((await goGet(`/api/queues/${enc(BIG)}/tasks/nope`)).status).toBe(404);
    expect((await goGet(`/api/queues/${enc(BIG)}/tasks?state=sleeping&page=1&size=20`)).status).toBe(400);
    expect(await goGet('/api/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
  });
});
