import 'server-only';
import { bulkAll, bulkByIds, type BulkResult } from '@/lib/asynq';
import type { BulkBody, BulkResultDto } from '@/lib/contract/mutations';
import { toErrorResponse } from '../http/errors';
import { getRedis } from '../redis/client';

function toDto(r: BulkResult): BulkResultDto {
  return {
    succeeded: r.succeeded,
    failed: r.failed.map((f) => ({ id: f.id, error: { code: f.error.kind, message: f.error.message } })),
    trimmed: r.trimmed,
    stopped: r.stopped,
  };
}

/**
 * Runs a bulk action in batches of 500. When the client accepts `application/x-ndjson`, the
 * response streams `{"progress":{"done","total"}}` lines and ends with `{"result":...}`;
 * otherwise it answers once, at the end. Closing the request stops it between batches.
 */
export async function runBulk(qname: string, body: BulkBody, req: Request): Promise<Response> {
  const redis = getRedis();
  const run = (onProgress?: (p: { done: number; total: number }) => void) => {
    const opts = { group: body.group, signal: req.signal, onProgress };
    return body.ids
      ? bulkByIds(redis, qname, body.action, body.state, body.ids, opts)
      : bulkAll(redis, qname, body.action, body.state, opts);
  };
  if (!(req.headers.get('accept') ?? '').includes('application/x-ndjson')) {
    return Response.json(toDto(await run()));
  }
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (v: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(v)}\n`));
      try {
        send({ result: toDto(await run((progress) => send({ progress }))) });
      } catch (err) {
        // The same envelope a plain answer would carry: a lost Redis says so (503, the address,
        // whether a batch may have been applied) and marks a stall, rather than "internal".
        const { error } = (await toErrorResponse(err, { mutates: true }).json()) as { error: Record<string, unknown> };
        send({ error });
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } });
}
