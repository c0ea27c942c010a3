import 'server-only';

/**
 * A large text answer built once and sent, as the same bytes, to every request that asks for it
 * while it is fresh: kept as the UTF-8 chunks it was written in (never joined into one string or
 * one buffer, which would hold it twice while joining) and streamed out chunk by chunk. Next's
 * server compresses it per request for a client that accepts gzip; a route handler cannot send
 * bytes it compressed itself (Next drops a handler's Content-Encoding header).
 */
export class TextChunks {
  constructor(
    readonly chunks: readonly Buffer[],
    readonly bytes: number,
  ) {}
}

/** Chunks written between two turns of the event loop, so other requests are served meanwhile. */
const CHUNKS_PER_TURN = 16;

/** Encodes `chunks` as UTF-8 as they are written, letting other requests run every few chunks. */
export async function collectText(chunks: Iterable<string>): Promise<TextChunks> {
  const out: Buffer[] = [];
  let bytes = 0;
  for (const chunk of chunks) {
    const b = Buffer.from(chunk, 'utf8');
    out.push(b);
    bytes += b.length;
    if (out.length % CHUNKS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return new TextChunks(out, bytes);
}

/** `body` as a response, its chunks streamed as they are (no copy of the whole). */
export function textChunksResponse(body: TextChunks, contentType: string, status: number): Response {
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = body.chunks[next++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
  return new Response(stream, { status, headers: { 'content-type': contentType, 'content-length': String(body.bytes) } });
}
