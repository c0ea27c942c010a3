import 'server-only';
import type { BulkBody, BulkProgressDto, BulkResultDto } from '@/lib/contract/mutations';
import { withItemFailures } from '../dto/failures';
import { progressStream } from '../http/ndjson';
import { getInspector } from '../redis/client';

/**
 * Runs a bulk action in batches of 500, reporting `{done, total}` after each. `signal` (the
 * client gone) stops it between batches.
 */
export function runBulk(qname: string, body: BulkBody, signal: AbortSignal) {
  return progressStream<BulkProgressDto, BulkResultDto>(async (onProgress) => {
    const opts = { group: body.group, signal, onProgress };
    const inspector = getInspector();
    return withItemFailures(
      await (body.ids
        ? inspector.bulkByIds(qname, body.action, body.state, body.ids, opts)
        : inspector.bulkAll(qname, body.action, body.state, opts)),
    );
  });
}
