/**
 * A payload that is not UTF-8 is stored as sent: enqueue, batch enqueue and payload edit with
 * `payloadEncoding: "base64"` write exactly those bytes into the task's `msg` (read back with
 * the core's codec, as Go asynq would), and every read gives them back unchanged.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { decodeTaskMessage } from '@/lib/asynq/codec';
import { callRoute, type Handler } from '../../support/call-route';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { consoleRoutes } from '../../support/console-routes';

const DB = 119;
/** Not UTF-8 (0xff 0xfe is a UTF-16 BOM, 0x00 a NUL): any text round trip would change it. */
const BYTES = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
const B64 = BYTES.toString('base64');
const JSON_HEADERS = { 'content-type': 'application/json' };

let redis: Redis;
let r: { tasks: { POST: Handler }; task: { GET: Handler; PATCH: Handler }; payload: { GET: Handler }; batch: { POST: Handler } };

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  r = {
    tasks: (await consoleRoutes()).tasks,
    task: (await consoleRoutes()).task,
    payload: (await consoleRoutes()).payload,
    batch: (await consoleRoutes()).batch,
  };
  redis = await openTestRedis(DB);
});
afterAll(() => redis.quit());
beforeEach(() => redis.flushdb());

/** The payload bytes in Redis, decoded from the task hash's `msg` by the core's codec. */
async function storedPayload(qname: string, id: string): Promise<Buffer> {
  const msg = await redis.hgetBuffer(k.taskKey(qname, id), 'msg');
  expect(msg, `task ${id} has a msg`).not.toBeNull();
  return Buffer.from(decodeTaskMessage(msg!).payload);
}

/** Every way the API reads the payload back: base64 in the task, raw bytes from /payload. */
async function expectReadsBack(qname: string, id: string, bytes: Buffer) {
  const task = await callRoute(r.task.GET, '/', { qname, taskId: id });
  expect(task.body).toMatchObject({ payload: bytes.toString('base64'), payloadEncoding: 'base64', payloadSize: bytes.length });
  const raw = await callRoute(r.payload.GET, '/', { qname, taskId: id });
  expect(raw.status).toBe(200);
  expect(raw.bytes.equals(bytes)).toBe(true);
}

describe('a non-UTF-8 payload through the API', () => {
  it('POST /api/queues/{q}/tasks stores the bytes exactly', async () => {
    const res = await callRoute(r.tasks.POST, '/', { qname: 'bin' }, {
      method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ type: 'blob:raw', payload: B64, payloadEncoding: 'base64', options: { taskId: 'raw-1' } }),
    });
    expect(res.status).toBe(201);
    expect((await storedPayload('bin', 'raw-1')).equals(BYTES)).toBe(true);
    await expectReadsBack('bin', 'raw-1', BYTES);
  });

  it('base64 with line breaks (as the UI and tools wrap it) stores the same bytes', async () => {
    const long = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37 + 0x80) & 0xff));
    const wrapped = long.toString('base64').replace(/.{76}/g, '$&\n');
    const res = await callRoute(r.tasks.POST, '/', { qname: 'bin' }, {
      method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ type: 'blob:raw', payload: wrapped, payloadEncoding: 'base64', options: { taskId: 'raw-2' } }),
    });
    expect(res.status).toBe(201);
    expect((await storedPayload('bin', 'raw-2')).equals(long)).toBe(true);
  });

  it('POST /api/enqueue-batch stores the bytes exactly', async () => {
    const res = await callRoute(r.batch.POST, '/', {}, {
      method: 'POST', headers: JSON_HEADERS,
      body: JSON.stringify({ items: [{ queue: 'bin', type: 'blob:raw', payload: B64, payloadEncoding: 'base64', options: { taskId: 'raw-3' } }] }),
    });
    expect(res.status).toBeLessThan(300);
    expect((await storedPayload('bin', 'raw-3')).equals(BYTES)).toBe(true);
  });

  it('PATCH of a scheduled task payload stores the bytes exactly', async () => {
    const created = await callRoute(r.tasks.POST, '/', { qname: 'bin' }, {
      method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ type: 'blob:raw', payload: '{}', options: { taskId: 'raw-4', processInSeconds: 3600 } }),
    });
    expect(created.status).toBe(201);
    const res = await callRoute(r.task.PATCH, '/', { qname: 'bin', taskId: 'raw-4' }, {
      method: 'PATCH', headers: JSON_HEADERS, body: JSON.stringify({ payload: B64, payloadEncoding: 'base64' }),
    });
    expect(res.status).toBe(200);
    expect((await storedPayload('bin', 'raw-4')).equals(BYTES)).toBe(true);
    await expectReadsBack('bin', 'raw-4', BYTES);
  });

  it('utf8 text with control and bidi characters is stored as its UTF-8 bytes, unescaped', async () => {
    const text = 'a\u202Eb\u200Bc\u0007';
    const res = await callRoute(r.tasks.POST, '/', { qname: 'bin' }, {
      method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ type: 'text:odd', payload: text, options: { taskId: 'txt-1' } }),
    });
    expect(res.status).toBe(201);
    expect((await storedPayload('bin', 'txt-1')).equals(Buffer.from(text, 'utf8'))).toBe(true);
    const back = await callRoute(r.task.GET, '/', { qname: 'bin', taskId: 'txt-1' });
    expect(back.body).toMatchObject({ payload: text, payloadEncoding: 'utf8' });
  });
});
