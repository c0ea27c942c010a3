/**
 * Sends parsed lines to POST /api/enqueue-batch, at most 1,000 per request. The server checks
 * every item's shape before enqueueing any (a 400 names `items.N.<field>`), so a line it
 * refuses that way is marked and the rest of its chunk sent again without it.
 */
import type { BatchItemInput } from '@/lib/query/enqueue';
import { isApiError } from '@/lib/query/fetcher';
import type { BatchLine } from './batch-lines';
import { archivedOf, type ArchivedInTheWay } from './archived-in-the-way';

/** The task a refused line ran into; `archived` when it is an archived task (then `item` is the line, to enqueue again). */
export interface ExistingTask {
  id: string;
  queue: string;
  archived: ArchivedInTheWay | null;
}

export type LineResult =
  | { line: number; ok: true; id: string; queue: string; state: string; replacedArchived?: boolean }
  | { line: number; ok: false; code: string; message: string; existing?: ExistingTask | undefined; item?: BatchItemInput | undefined };

type BatchError = { code: string; message: string; existing?: unknown };
type BatchResponse = { results: ({ ok: true; id: string; queue: string; state: string } | { ok: false; error: BatchError })[] };

/** The task a task_id_conflict names, when the server said which (described as archived when it is). */
function existingOf(e: BatchError): ExistingTask | undefined {
  const x = e.existing as { id?: unknown; queue?: unknown; archived?: unknown } | undefined;
  return typeof x?.id === 'string' && typeof x.queue === 'string' ? { id: x.id, queue: x.queue, archived: archivedOf(x.archived) } : undefined;
}

const CHUNK = 1000;

async function sendChunk(lines: BatchLine[], send: (items: BatchItemInput[]) => Promise<BatchResponse>, out: LineResult[]): Promise<void> {
  let pending = lines;
  while (pending.length > 0) {
    try {
      const { results } = await send(pending.map((l) => l.item!));
      results.forEach((r, i) => {
        const line = pending[i]?.line ?? 0;
        if (r.ok) return out.push({ line, ok: true, id: r.id, queue: r.queue, state: r.state });
        const existing = existingOf(r.error);
        out.push({ line, ok: false, code: r.error.code, message: r.error.message, existing, item: existing?.archived ? pending[i]?.item : undefined });
      });
      return;
    } catch (err) {
      const at = isApiError(err) && typeof err.details.field === 'string' ? /^items\.(\d+)\b/.exec(err.details.field) : null;
      const bad = at ? pending[Number(at[1])] : undefined;
      if (!isApiError(err) || !bad) throw err;
      out.push({ line: bad.line, ok: false, code: err.code, message: err.message.replace(/^items\.\d+\./, '') });
      pending = pending.filter((l) => l !== bad);
    }
  }
}

/** Every line's outcome, in line order: local parse errors, server refusals, enqueued tasks. */
export async function sendBatch(lines: BatchLine[], send: (items: BatchItemInput[]) => Promise<BatchResponse>): Promise<LineResult[]> {
  const out: LineResult[] = lines.filter((l) => l.error).map((l) => ({ line: l.line, ok: false, code: 'invalid_line', message: l.error ?? '' }));
  const valid = lines.filter((l) => l.item);
  for (let i = 0; i < valid.length; i += CHUNK) await sendChunk(valid.slice(i, i + CHUNK), send, out);
  return out.sort((a, b) => a.line - b.line);
}
