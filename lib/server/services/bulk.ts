import 'server-only';
import type { BulkResult } from '@/lib/asynq';
import type { BulkBody, BulkProgressDto, BulkResultDto } from '@/lib/contract/mutations';
import { progressStream } from '../http/ndjson';
import { getInspector } from '../redis/client';

function toDto(r: BulkResult): BulkResultDto {
  return {
    succeeded: r.succeeded,
    failed: r.failed.map((f) => ({ id: f.id, error: { code: f.error.kind, message: f.error.message } })),
    trimmed: r.trimmed,
    stopped: r.stopped,
  };
}

/**
 * Runs a bulk action in batches of 500, reporting `{done, total}` after each. `signal` (the
 * client gone) stops it between batches.
 */
export function runBulk(qname: string, body: BulkBody, signal: AbortSignal) {
  return progressStream<BulkProgressDto, BulkResultDto>(async (onProgress) => {
    const opts = { group: body.group, signal, onProgress };
    const inspector = getInspector();
    return toDto(
      await (body.ids
        ? inspector.bulkByIds(qname, body.action, body.state, body.ids, opts)
        : inspector.bulkAll(qname, body.action, body.state, opts)),
    );
  });
}
