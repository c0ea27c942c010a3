/**
 * The search benchmark (issue 10): a payload-field search over `--tasks` (default 1,000,000)
 * pending tasks whose JSON payloads differ per task, through the real route handlers in this
 * process (zod, scan, DTOs, JSON).
 *  - full pass: `payload.user.id=<one id>` (1 match), page after page from the cursor, as the
 *    UI does; tasks/s = tasks scanned / wall time. Target ≥ 100,000 tasks/s.
 *  - preview count over the same filter (POST /api/tasks/search/act, preview: true).
 *  - first page when matches are common: `payload.tier=gold` (every tenth task), a new search
 *    each time. Target: p95 ≤ 300 ms.
 * Every Redis call is logged by SLOWLOG at 200 µs during the runs; target: none ≥ 5 ms.
 */
import { register } from 'node:module';
import type { Redis } from 'ioredis';
import { decodeTaskMessage, encodeTaskMessage } from '../lib/asynq/codec';
import * as k from '../lib/asynq/keys';
import type { BenchCase, BenchContext, CaseResult } from './bench-case';
import { percentile } from './measure';
import { SLOW_MS, startCallLog, stopCallLog, THRESHOLD_US, type CallStats } from './slowlog';

const QUEUE = 'search:big';
const TYPE = 'bench:email';
const ID_FORMAT = 'c0000000-0000-4000-8000-%012d';
const CHUNK = 2500;
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Builds each msg in Redis: fields 1-3 (type, a per-task JSON payload, the ID) + fixed fields 4+. */
const SEED_LUA = `
local function varint(n)
  local out = ''
  while n >= 128 do out = out .. string.char(n % 128 + 128); n = math.floor(n / 128) end
  return out .. string.char(n)
end
local typ, suffix, prefix, fmt = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local first, count, since = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
for i = first, first + count - 1 do
  local id = string.format(fmt, i)
  local tier = (i % 10 == 0) and 'gold' or 'free'
  local payload = '{"user":{"id":' .. i .. ',"plan":"pro"},"tier":"' .. tier .. '","order":"o-' .. i ..
    '","to":"user-' .. i .. '@example.com","subject":"Your weekly digest is here"}'
  local msg = '\\10' .. varint(#typ) .. typ .. '\\18' .. varint(#payload) .. payload .. '\\26' .. varint(#id) .. id .. suffix
  redis.call('HSET', prefix .. id, 'msg', msg, 'state', 'pending', 'pending_since', since)
  redis.call('LPUSH', KEYS[1], id)
end
redis.call('SADD', KEYS[2], ARGV[8])
return count`;

const idOf = (i: number) => ID_FORMAT.replace('%012d', String(i).padStart(12, '0'));
const n = (x: number) => Math.round(x).toLocaleString('en-US');

async function seed(admin: Redis, tasks: number): Promise<{ ms: number; msgBytes: number }> {
  await admin.flushall();
  const base = { type: '', payload: new Uint8Array(), id: '', queue: QUEUE, retry: 25, retried: 0, errorMsg: '', timeout: 1800, deadline: 0, uniqueKey: '', lastFailedAt: 0, retention: 0, completedAt: 0, groupKey: '', headers: {} };
  const suffix = Buffer.from(encodeTaskMessage(base));
  const since = String(BigInt(Date.now()) * 1_000_000n);
  const t0 = performance.now();
  for (let first = 1; first <= tasks; first += CHUNK) {
    await admin.eval(SEED_LUA, 2, k.pendingKey(QUEUE), k.ALL_QUEUES, TYPE, suffix, k.taskKeyPrefix(QUEUE), ID_FORMAT, first, Math.min(CHUNK, tasks - first + 1), since, QUEUE);
  }
  const ms = performance.now() - t0;
  const sample = await admin.hgetBuffer(k.taskKey(QUEUE, idOf(10)), 'msg');
  const m = decodeTaskMessage(sample!);
  const payload = JSON.parse(Buffer.from(m.payload).toString()) as { user: { id: number }; tier: string };
  if (m.id !== idOf(10) || m.type !== TYPE || m.queue !== QUEUE || payload.user.id !== 10 || payload.tier !== 'gold') {
    throw new Error(`seeded msg does not decode as expected: ${JSON.stringify({ ...m, payload: Buffer.from(m.payload).toString() })}`);
  }
  return { ms, msgBytes: sample!.length };
}

async function loadRoutes(url: string): Promise<{ search: Handler; act: Handler }> {
  // lib/server imports `server-only`; Next.js resolves it under the react-server condition (see our-reads.ts).
  const hook = `export async function resolve(s, c, next) { return s === 'server-only' ? next(s, { ...c, conditions: [...c.conditions, 'react-server'] }) : next(s, c); }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`, import.meta.url);
  process.env.REDIS_URL ??= url;
  // The bench calls the route handlers in-process on its private loopback Redis: no sign-in.
  process.env.ASYNQLENS_AUTH ??= 'none';
  const search = (await import('../app/api/tasks/search/route')) as { GET: Handler };
  const act = (await import('../app/api/tasks/search/act/route')) as { POST: Handler };
  return { search: search.GET, act: act.POST };
}

interface Page {
  tasks: unknown[];
  cursor: string | null;
  scanned: number;
  total: number;
}

async function get(h: Handler, qs: string): Promise<Page> {
  const res = await h(new Request(`http://localhost/api/tasks/search?${qs}`), { params: Promise.resolve({}) });
  if (res.status !== 200) throw new Error(`search ${qs}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as Page;
}

/** Pages through the whole search; returns wall time, request count, per-request times and matches. */
async function fullPass(h: Handler, filter: string) {
  const times: number[] = [];
  let cursor: string | null = null;
  let matches = 0;
  let last: Page | undefined;
  const t0 = performance.now();
  do {
    const r0 = performance.now();
    last = await get(h, `${filter}&size=100${cursor ? `&cursor=${cursor}` : ''}`);
    times.push(performance.now() - r0);
    matches += last.tasks.length;
    cursor = last.cursor;
  } while (cursor);
  return { ms: performance.now() - t0, requests: times.length, times: times.sort((a, b) => a - b), matches, scanned: last.scanned, total: last.total };
}

async function logged<T>(admin: Redis, fn: () => Promise<T>): Promise<{ value: T; calls: CallStats }> {
  const saved = await startCallLog(admin);
  const value = await fn();
  return { value, calls: await stopCallLog(admin, saved) };
}

const callCell = (c: CallStats) => `${n(c.maxUs)} (\`${c.maxCall}\`) | ${c.slow}`;

export const searchCase: BenchCase = {
  name: 'search',
  async run(ctx: BenchContext): Promise<CaseResult> {
    const { admin, tasks } = ctx;
    const seeded = await seed(admin, tasks);
    console.log(`  seeded ${n(tasks)} pending in ${QUEUE} in ${(seeded.ms / 1000).toFixed(1)} s (msg ${seeded.msgBytes} B)`);
    const routes = await loadRoutes(ctx.url);
    const rareId = Math.ceil(tasks * 0.777);
    const rare = `queue=${encodeURIComponent(QUEUE)}&payload.user.id=${rareId}`;
    await get(routes.search, rare); // warm-up: script load, JIT
    const pass = await logged(admin, () => fullPass(routes.search, rare));
    const p = pass.value;
    console.log(`  full pass: ${n(p.scanned)} scanned in ${(p.ms / 1000).toFixed(2)} s, ${p.requests} requests, ${p.matches} match`);

    const preview = await logged(admin, async () => {
      const t0 = performance.now();
      const res = await routes.act(new Request('http://localhost/api/tasks/search/act', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filter: { queue: QUEUE, 'payload.user.id': String(rareId) }, action: 'delete', preview: true }),
      }), { params: Promise.resolve({}) });
      const body = (await res.json()) as { count: number; scanned: number };
      return { ms: performance.now() - t0, ...body };
    });
    console.log(`  preview count: ${preview.value.count} of ${n(preview.value.scanned)} in ${(preview.value.ms / 1000).toFixed(2)} s`);

    const common = `payload.tier=gold&size=20`;
    const firstTimes: number[] = [];
    const first = await logged(admin, async () => {
      for (let i = 0; i < ctx.iterations; i++) {
        const t0 = performance.now();
        const page = await get(routes.search, common);
        firstTimes.push(performance.now() - t0);
        if (page.tasks.length !== 20) throw new Error(`first page has ${page.tasks.length} tasks, not 20`);
      }
    });
    firstTimes.sort((a, b) => a - b);
    const rate = p.scanned / (p.ms / 1000);
    const previewRate = preview.value.scanned / (preview.value.ms / 1000);
    const firstP95 = percentile(firstTimes, 95);
    console.log(`  first page (10% match): p50 ${percentile(firstTimes, 50)} ms, p95 ${firstP95} ms`);

    const failures: string[] = [];
    if (rate < 100_000) failures.push(`full pass scanned ${n(rate)} tasks/s, target ≥ 100,000`);
    if (p.matches !== 1 || p.scanned !== tasks) failures.push(`full pass found ${p.matches} matches in ${p.scanned} tasks, expected 1 in ${tasks}`);
    if (preview.value.count !== 1) failures.push(`preview counted ${preview.value.count}, expected 1`);
    for (const [what, c] of [['full pass', pass.calls], ['preview', preview.calls], ['first pages', first.calls]] as const) {
      if (c.slow > 0) failures.push(`${what}: ${c.slow} Redis calls ≥ ${SLOW_MS} ms (longest ${n(c.maxUs)} µs)`);
    }
    if (firstP95 > 300) failures.push(`first page p95 ${firstP95} ms, target ≤ 300 ms`);

    const markdown = [
      `## Search: payload-field search over ${n(tasks)} tasks`,
      '',
      `- Data: ${n(tasks)} pending tasks in \`${QUEUE}\`, each with its own JSON payload (\`{"user":{"id":<i>,...},"tier":"gold"|"free",...}\`, msg ${seeded.msgBytes} B); every tenth task is \`tier: gold\`. Seeded server-side in ${(seeded.ms / 1000).toFixed(1)} s.`,
      '- Through the route handlers in this process (zod parsing, the scan, DTOs and JSON included; no HTTP server). Each request reads at most 5,000 tasks from Redis, 1,000 per script call (search-range.lua), while Node filters the previous batch.',
      `- Longest Redis call and calls ≥ ${SLOW_MS} ms: SLOWLOG at \`slowlog-log-slower-than ${THRESHOLD_US}\` during each run (execution time inside Redis; commands nested in scripts and the bench's admin connection left out).`,
      '',
      '| Run | Requests | Tasks scanned | Wall s | Tasks/s | Request p50 / max ms | Script calls | Longest Redis call µs | Calls ≥ 5 ms |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
      `| full pass: \`GET /api/tasks/search?${rare}&size=100\`, cursor to the end (${p.matches} match) | ${p.requests} | ${n(p.scanned)} | ${(p.ms / 1000).toFixed(2)} | **${n(rate)}** | ${percentile(p.times, 50).toFixed(1)} / ${(p.times.at(-1) ?? 0).toFixed(1)} | ${pass.calls.scripts} | ${callCell(pass.calls)} |`,
      `| preview count: \`POST /api/tasks/search/act\` \`{ preview: true }\`, same filter (count ${preview.value.count}) | 1 | ${n(preview.value.scanned)} | ${(preview.value.ms / 1000).toFixed(2)} | ${n(previewRate)} | – | ${preview.calls.scripts} | ${callCell(preview.calls)} |`,
      `| first page, 10% match: \`GET /api/tasks/search?${common}\`, a new search each time | ${ctx.iterations} | – | – | – | p50 ${percentile(firstTimes, 50).toFixed(1)}, **p95 ${firstP95.toFixed(1)}**, max ${(firstTimes.at(-1) ?? 0).toFixed(1)} | ${first.calls.scripts} | ${callCell(first.calls)} |`,
      '',
      ...([['full pass', pass.calls], ['preview count', preview.calls], ['first pages', first.calls]] as const).map(([what, c]) =>
        `- ${what}: ${n(c.scripts)} script calls, ${n(c.scriptUs / 1000)} ms of Redis time in all; ${n(c.logged)} calls ≥ ${THRESHOLD_US} µs: p50 ${n(c.p50Us)} µs, p99 ${n(c.p99Us)} µs, max ${n(c.maxUs)} µs (${c.spread})${c.complete ? '' : ' (SLOWLOG filled up: some calls missing)'}.`),
      `- Targets: ≥ 100,000 tasks/s scanned, no Redis call ≥ ${SLOW_MS} ms, first page p95 ≤ 300 ms. ${failures.length ? `**Missed:** ${failures.join('; ')}.` : 'All met.'}`,
      '',
    ].join('\n');
    return { markdown, failures };
  },
};
