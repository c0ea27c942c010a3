/**
 * GET /api/queues/{q}/tasks with `sort` and `order`: no parameter keeps asynq's order (as
 * before), `order=desc` is newest first at the far page too, and a sort that needs a scan or a
 * bad order is a 400 naming the parameter and the rule.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedZset } from '@/lib/asynq/testutil/seed';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';

const DB = 48;
const { redis, routes } = await useConsoleRoutes(DB, { flushEach: false });
const Q = 'ordered';
const N = 45;
const id = (i: number) => `a${String(i).padStart(2, '0')}`;

beforeAll(async () => {
  await redis.flushdb();
  // Archived at one-minute steps, two tasks per minute (ties broken by ID, as Redis orders them).
  for (let i = 0; i < N; i++) await seedZset(redis, 'archived', newTaskMessage({ id: id(i), type: 't', queue: Q }), 1_780_000_000 + Math.floor(i / 2) * 60);
});

const get = async (qs: string) => {
  const { status, body } = await callRoute(routes.tasks.GET, `/api/queues/${Q}/tasks?state=archived&size=20${qs}`, { qname: Q });
  return { status, ids: status === 200 ? (body.tasks as { id: string }[]).map((t) => t.id) : [], body };
};

describe('task list order', () => {
  const asc = Array.from({ length: N }, (_, i) => id(i));
  const desc = [...asc].reverse();

  it('lists oldest first without parameters, as before', async () => {
    expect((await get('')).ids).toEqual(asc.slice(0, 20));
    expect((await get('&order=asc&sort=archived_at&page=3')).ids).toEqual(asc.slice(40));
  });

  it('lists newest first with order=desc, on the first and the far page', async () => {
    expect((await get('&order=desc')).ids).toEqual(desc.slice(0, 20));
    const far = await get('&order=desc&sort=archived_at&page=3');
    expect(far.ids).toEqual(desc.slice(40));
    expect(far.body).toMatchObject({ page: 3, size: 20, total: N });
  });

  it.each([
    ['&sort=type', 'sort', 'needs a scan'],
    ['&sort=next_process_at', 'sort', 'ordered only by archived_at'],
    ['&order=newest', 'order', 'order must be asc or desc'],
  ])('%s is a 400 naming %s', async (qs, field, rule) => {
    const { status, body } = await get(qs);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_argument', field });
    expect(body.error.message).toContain(rule);
  });
});
