/**
 * Our side of the write-path interop suite: the mutation route handlers, called as Next.js
 * calls them (a real Request, JSON body, same-site). The modules are imported only after
 * REDIS_URL points at the test database, because the server reads its environment once.
 */
import { callRoute } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { testRedisUrl } from '../../support/test-redis';

type Handler = Parameters<typeof callRoute>[0];

export interface ApiResponse {
  status: number;
  /** Parsed JSON (untyped, as callRoute returns it): every read feeds an assertion. */
  body: Awaited<ReturnType<typeof callRoute>>['body'];
}

const enc = encodeURIComponent;
const JSON_HEADERS = { 'content-type': 'application/json' };

/** Loads the routes against database `db` and returns a small typed client of the mutations. */
export async function openApi(db: number) {
  process.env.REDIS_URL = testRedisUrl(db);
  const { tasks, task, action, reschedule, bulk, pause, resume, queue, replaceArchived } = await consoleRoutes();
  const { getRedis } = await import('@/lib/server/redis/client');

  const send = async (handler: Handler, path: string, params: Record<string, string>, method: string, body?: unknown): Promise<ApiResponse> => {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.headers = JSON_HEADERS;
      init.body = JSON.stringify(body);
    }
    const r = await callRoute(handler, path, params, init);
    return { status: r.status, body: r.body };
  };

  return {
    /** The server's own Redis connection (same process singleton the routes use). */
    serverRedis: getRedis,
    enqueue: (q: string, body: Record<string, unknown>) =>
      send(tasks.POST, `/api/queues/${enc(q)}/tasks`, { qname: q }, 'POST', body),
    /** "Delete the archived task and enqueue": the enqueue body plus `archivedId`. */
    enqueueReplacingArchived: (q: string, body: Record<string, unknown>) =>
      send(replaceArchived.POST, `/api/queues/${enc(q)}/enqueue-replacing-archived`, { qname: q }, 'POST', body),
    getTask: (q: string, id: string) =>
      send(task.GET, `/api/queues/${enc(q)}/tasks/${enc(id)}`, { qname: q, taskId: id }, 'GET'),
    taskAction: (q: string, id: string, act: 'run' | 'archive' | 'cancel') =>
      send(action.POST, `/api/queues/${enc(q)}/tasks/${enc(id)}/${act}`, { qname: q, taskId: id, action: act }, 'POST', {}),
    deleteTask: (q: string, id: string) =>
      send(task.DELETE, `/api/queues/${enc(q)}/tasks/${enc(id)}`, { qname: q, taskId: id }, 'DELETE'),
    updatePayload: (q: string, id: string, payload: Buffer) =>
      send(task.PATCH, `/api/queues/${enc(q)}/tasks/${enc(id)}`, { qname: q, taskId: id }, 'PATCH', {
        payload: payload.toString('base64'),
        payloadEncoding: 'base64',
      }),
    reschedule: (q: string, id: string, processAt: string) =>
      send(reschedule.POST, `/api/queues/${enc(q)}/tasks/${enc(id)}/reschedule`, { qname: q, taskId: id }, 'POST', { processAt }),
    bulk: (q: string, body: { action: 'run' | 'archive' | 'delete'; state: string; ids?: string[]; group?: string }) =>
      send(bulk.POST, `/api/queues/${enc(q)}/bulk`, { qname: q }, 'POST', body),
    pause: (q: string) => send(pause.POST, `/api/queues/${enc(q)}/pause`, { qname: q }, 'POST', {}),
    resume: (q: string) => send(resume.POST, `/api/queues/${enc(q)}/resume`, { qname: q }, 'POST', {}),
    deleteQueue: (q: string, force: boolean) =>
      send(queue.DELETE, `/api/queues/${enc(q)}${force ? '?force=true' : ''}`, { qname: q }, 'DELETE'),
  };
}

export type Api = Awaited<ReturnType<typeof openApi>>;
