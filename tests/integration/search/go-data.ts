/**
 * The search suite's data, written by the real asynq v0.26.0 (tests/go `enqueue-many`, then
 * `process` and `process-retry` runs whose `fail:` handlers leave retried counts, errors and
 * failure times, and whose `result:` handler leaves completed tasks), plus Go's own Inspector
 * view of it (`dump`), which the tests use as the oracle: every expected result is computed
 * from Go's view, not ours.
 */
import type { GoDump, GoTask } from '../../interop/go-dump';
import { redisArgs } from '../../interop/go-harness';
import { asynqGo, goProcess, type GoEnqueueRequest } from '../../interop/write/go';

export const MAIL = 'search:mail';
export const BILLING = 'search:billing';
/** A queue name with a space, braces, a colon and non-ASCII, to prove names round-trip. */
export const ODD = 'search:odd {x}:ü';
/** Processed by a Go server (1 s retry delay), so it holds archived and completed tasks. */
export const WORK = 'search:work';
/** Processed by a Go server whose retry delay is an hour, so its failed tasks stay in retry. */
export const RETRY = 'search:retry';
/** The custom task ID used in two queues. */
export const SHARED_ID = 'order-4711';

const j = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const t = (s: string) => Buffer.from(s).toString('base64');

function requests(now: number): GoEnqueueRequest[] {
  return [
    { queue: MAIL, type: 'email:welcome', payloadBase64: j({ user: { id: 42, name: 'Ann' }, order: '4711', tags: ['new', 'vip'] }), headers: { tenant: 'acme', region: 'eu' } },
    { queue: MAIL, type: 'email:welcome', payloadBase64: j({ user: { id: '42' }, order: '4712' }), headers: { tenant: 'globex' } },
    { queue: MAIL, type: 'email:digest', payloadBase64: j({ user: { id: 7 }, items: [{ sku: 'A1' }, { sku: 'B2' }] }) },
    { queue: MAIL, type: 'email:digest', payloadBase64: j({ user: { id: 42 } }), headers: { tenant: 'acme' }, options: { processAtUnix: now + 3600 } },
    { queue: MAIL, type: 'email:digest', payloadBase64: j({ user: { id: 8 } }), options: { processAtUnix: now + 7200 } },
    // Not UTF-8, yet it holds the bytes "4711": a text search must not match it.
    { queue: MAIL, type: 'sms:send', payloadBase64: Buffer.from([0xff, 0xfe, 0x34, 0x37, 0x31, 0x31, 0x00]).toString('base64') },
    { queue: MAIL, type: 'sms:send', payloadBase64: t('plain text order 4711') },
    { queue: MAIL, type: 'email:welcome', payloadBase64: j({ user: { id: 42 } }), options: { group: 'g1' } },
    { queue: MAIL, type: 'email:welcome', payloadBase64: j({ user: { id: 1 } }), options: { taskId: SHARED_ID } },
    // The key "name" spelt with a JSON escape: only a real parse finds it.
    { queue: MAIL, type: 'email:welcome', payloadBase64: t('{"na\\u006de":"esc","user":{"id":5}}') },
    { queue: MAIL, type: 'email:empty', payloadBase64: null },
    { queue: BILLING, type: 'billing:charge', payloadBase64: t('{"amount":42.0,"currency":"EUR","paid":true,"note":null}'), options: { taskId: SHARED_ID } },
    { queue: BILLING, type: 'billing:charge', payloadBase64: j({ amount: 10, paid: false }), headers: { tenant: 'acme' } },
    { queue: BILLING, type: 'billing:refund', payloadBase64: j({ amount: 3 }), options: { group: 'g2' } },
    { queue: ODD, type: 'email:welcome', payloadBase64: j({ user: { id: 42 } }), headers: { tenant: 'acme' } },
    { queue: WORK, type: 'fail:always', payloadBase64: j({ user: { id: 42 }, job: 'a' }), headers: { tenant: 'acme' }, options: { maxRetry: 0 } },
    { queue: WORK, type: 'fail:retry', payloadBase64: j({ job: 'b' }), options: { maxRetry: 2 } },
    { queue: RETRY, type: 'fail:many', payloadBase64: j({ job: 'c' }), options: { maxRetry: 25 } },
    { queue: RETRY, type: 'fail:many', payloadBase64: j({ job: 'c2' }), options: { maxRetry: 25 } },
    { queue: WORK, type: 'result:ok', payloadBase64: j({ job: 'd' }), options: { retentionSeconds: 3600 } },
    { queue: WORK, type: 'ok:gone', payloadBase64: j({ job: 'e' }) },
  ];
}

export interface GoData {
  /** Unix seconds just before the tasks were written. */
  startedAt: number;
  dump: GoDump;
  /** Every task Go's Inspector lists, with its queue and state. */
  tasks: GoTask[];
}

/** Every task of a dump, in no particular order. */
export function flatten(dump: GoDump): GoTask[] {
  const out: GoTask[] = [];
  for (const [, qt] of Object.entries(dump.tasks)) {
    for (const st of ['pending', 'active', 'scheduled', 'retry', 'archived', 'completed'] as const) out.push(...qt[st]);
    for (const group of Object.values(qt.aggregating)) out.push(...group);
  }
  return out;
}

/** Go's current view of database `db`. */
export async function goView(db: number): Promise<GoTask[]> {
  return flatten(await asynqGo.json<GoDump>('dump', redisArgs(db)));
}

/** Every search:work task is where the fixture needs it (archived, or completed). */
function workDone(tasks: readonly GoTask[]): boolean {
  return tasks.filter((t) => t.queue === WORK).every((t) => t.state === 'archived' || t.state === 'completed');
}

/** Writes the dataset into the (flushed) database `db` with Go, and returns Go's view of it. */
export async function writeGoData(db: number): Promise<GoData> {
  const startedAt = Math.floor(Date.now() / 1000);
  const out = await asynqGo.json<{ ok: boolean; error?: string }[]>('enqueue-many', redisArgs(db), { stdin: requests(startedAt).map((r) => ({ options: {}, ...r })) });
  const bad = out.find((r) => !r.ok);
  if (bad) throw new Error(`Go enqueue failed: ${bad.error}`);
  // WORK: 1 s retry delay and forwarder, so fail:retry (2 retries) ends archived with
  // retried 2. RETRY: an hour's delay, so each fail:many task waits in retry with retried 1.
  await Promise.all([
    goProcess(db, { queues: [WORK], seconds: 6 }),
    asynqGo.run('process-retry', [...redisArgs(db), '--queues', RETRY, '--seconds', '2'], { timeoutMs: 60_000 }),
  ]);
  let dump = await asynqGo.json<GoDump>('dump', redisArgs(db));
  // On a loaded machine fail:retry may not have used its retries yet: let Go go on a little.
  for (let extra = 0; extra < 3 && !workDone(flatten(dump)); extra++) {
    await goProcess(db, { queues: [WORK], seconds: 3 });
    dump = await asynqGo.json<GoDump>('dump', redisArgs(db));
  }
  if (!workDone(flatten(dump))) throw new Error('the Go server did not finish the search:work fixture tasks');
  return { startedAt, dump, tasks: flatten(dump) };
}
