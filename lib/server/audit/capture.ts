import 'server-only';
import type { AuditRecordDto } from '@/lib/contract/audit';
import { auditAction, auditRoute, auditTarget } from './actions';
import { auditEnabled, writeAudit } from './log';
import { countRefusal } from './refusals';
import { appPath, type Principal } from '../auth/principal';

type Fields = Record<string, unknown>;

/** What the route wrapper learnt of a mutation request before answering it. */
export interface Seen {
  params: Fields;
  /** The parsed body; undefined when the request was refused before its body was read. */
  body?: unknown;
  /** True once the route's handler was called: a request turned away before it changed nothing. */
  handled?: boolean;
}

const asFields = (v: unknown): Fields => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Fields) : {});

/**
 * How many tasks (or other items) a mutation changed, from the bodies the mutation routes
 * answer (lib/contract/mutations, search, triage, diagnostics): bulk, search act and re-run
 * report `succeeded`, keep-one `deleted`, a batch enqueue one result per item; a single-item
 * action (task, queue, lock) that succeeded changed one. A preview changes nothing.
 */
export function affectedCount(status: number, body: unknown): number {
  if (status < 200 || status >= 300) return 0;
  const b = asFields(body);
  if (b.preview === true) return 0;
  if (typeof b.succeeded === 'number') return b.succeeded;
  if (typeof b.deleted === 'number') return b.deleted;
  if (Array.isArray(b.results)) return b.results.filter((r) => asFields(r).ok === true).length;
  return 1;
}

/**
 * Archived tasks asynq's archive limit deleted to make room, from the `trimmed` of a bulk or
 * search-act result (exact: every trimming script call reports what it removed, by age or by
 * size); undefined for any other answer, so the record carries it only where it can be known.
 */
export function trimmedCount(status: number, body: unknown): number | undefined {
  if (status < 200 || status >= 300) return undefined;
  const b = asFields(body);
  return b.preview !== true && typeof b.trimmed === 'number' ? b.trimmed : undefined;
}

const errorCode = (body: unknown): string | null => {
  const code = asFields(asFields(body).error).code;
  return typeof code === 'string' ? code : null;
};

/** The most of a body read for a record's target: a handler that did not read its body was sent a small one. */
const RAW_BODY_BYTES = 64 * 1024;

/**
 * The body of a handled request whose route did not parse it, read leniently for the record's
 * target: at most RAW_BODY_BYTES, then the stream is cancelled; a longer body gives no target.
 */
async function rawBody(req: Request): Promise<unknown> {
  if (req.bodyUsed || !req.body) return {};
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > RAW_BODY_BYTES) return {};
      chunks.push(value);
    }
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return {};
  } finally {
    reader.cancel().catch(() => {});
  }
}

/**
 * A streamed (NDJSON) answer passed through unchanged while its lines are watched: the record
 * is written when the stream ends, with the count of the final `{"result":…}` line (or the code
 * of an `{"error":…}` line), or with code `client_closed` when the client went away first.
 */
function tapStream(res: Response, done: (count: number, code: string | null, trimmed?: number) => Promise<void>): Response {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let last: unknown = null;
  const see = (text: string) => {
    pending += text;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line) {
        try {
          const v = asFields(JSON.parse(line));
          if ('result' in v || 'error' in v) last = v;
        } catch {
          // Not JSON: the count stays what the last complete line said.
        }
      }
    }
  };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done: ended, value } = await reader.read();
      if (!ended) {
        see(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
        return;
      }
      see('\n');
      const v = asFields(last);
      await done(v.result ? affectedCount(200, v.result) : 0, v.error ? errorCode(v) : v.result ? null : 'incomplete', trimmedCount(200, v.result));
      controller.close();
    },
    async cancel(reason) {
      await reader.cancel(reason);
      await done(last ? affectedCount(200, asFields(last).result) : 0, 'client_closed', last ? trimmedCount(200, asFields(last).result) : undefined);
    },
  });
  return new Response(stream, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** The answer's JSON body, read from a clone (the answer goes out unread); null for any other body. */
async function jsonAnswer(res: Response): Promise<unknown> {
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) return null;
  return (await res.clone().json().catch(() => null)) as unknown;
}

/**
 * Whether a request was refused: answered 4xx (guards, validation, a conflict: nothing
 * changed), or turned away before its handler ran. A principal that may not mutate never
 * reaches a handler, so nothing a viewer sends is ever more than a refusal count.
 */
const refused = (seen: Seen, status: number): boolean => seen.handled !== true || (status >= 400 && status < 500);

/**
 * Records a mutation request in the audit log and returns its answer unchanged, unless
 * recording is off (ASYNQLENS_AUDIT=off): a refusal is counted (refusals.ts) and its body
 * never read; any other request is recorded (Redis + stdout), cut to its bound (bound.ts).
 */
export async function audited(req: Request, user: Principal, seen: Seen, res: Response): Promise<Response> {
  if (!auditEnabled()) return res;
  const url = new URL(req.url);
  const path = appPath(url.pathname);
  if (refused(seen, res.status)) {
    const parsed = await jsonAnswer(res);
    await countRefusal({ user: user.user, role: user.role, method: req.method, route: auditRoute(path), status: res.status, code: errorCode(parsed) ?? `http_${res.status}` });
    return res;
  }
  const body = asFields(seen.body ?? (await rawBody(req)));
  const base = {
    user: user.user,
    role: user.role,
    action: auditAction(req.method, path, seen.params, body),
    method: req.method,
    path,
    target: auditTarget({ params: seen.params, query: Object.fromEntries(url.searchParams), body }),
  };
  const write = (count: number, code: string | null, trimmed: number | undefined, status = res.status) =>
    writeAudit({ at: new Date().toISOString(), ...base, count, status, code, ...(trimmed === undefined ? {} : { trimmed }) } satisfies AuditRecordDto);
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('application/x-ndjson') && res.body) return tapStream(res, (count, code, trimmed) => write(count, code, trimmed));
  const parsed = await jsonAnswer(res);
  await write(affectedCount(res.status, parsed), res.ok ? null : (errorCode(parsed) ?? `http_${res.status}`), trimmedCount(res.status, parsed));
  return res;
}
