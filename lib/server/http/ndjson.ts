import 'server-only';
import type { ErrorEnvelope } from '@/lib/contract/error-envelope';

export const NDJSON = 'application/x-ndjson';

const TAG = Symbol.for('asynqlens.progress-stream');

/**
 * Work that reports progress as it goes (a bulk action, a search action, a re-run): what a
 * service returns instead of a result when its caller may watch it. route() alone decides how it
 * is answered (see {@link ndjsonResponse}); a service never builds the stream itself.
 */
export interface ProgressStream<P, R> {
  readonly [TAG]: true;
  /** Runs the work; `onProgress` is absent when nobody watches (a plain JSON answer). */
  run(onProgress?: (progress: P) => void): Promise<R>;
}

export function progressStream<P, R>(run: (onProgress?: (progress: P) => void) => Promise<R>): ProgressStream<P, R> {
  return { [TAG]: true, run };
}

export const isProgressStream = (v: unknown): v is ProgressStream<unknown, unknown> =>
  typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[TAG] === true;

export const acceptsNdjson = (req: Request): boolean => (req.headers.get('accept') ?? '').includes(NDJSON);

/**
 * The streamed answer: a `{"progress":…}` line per report, then `{"result":…}`, or the error
 * envelope `fail` maps a failure to (the same code and fields a plain answer would carry: a
 * Redis lost midway is `redis_unavailable`, not `internal`). `settled` runs once the work has
 * ended either way. The status is 200 from the first byte: a failure can only be said in a line.
 */
export function ndjsonResponse<P, R>(work: ProgressStream<P, R>, fail: (err: unknown) => ErrorEnvelope, settled: () => void): Response {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      // A client gone midway is not an error of the work: its lines are dropped, and the work
      // stops at its next check of the request's signal.
      const send = (line: unknown) => open && controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      try {
        send({ result: await work.run((progress) => send({ progress })) });
      } catch (err) {
        send(fail(err));
      } finally {
        settled();
      }
      if (open) controller.close();
    },
    cancel() {
      open = false;
    },
  });
  return new Response(body, { headers: { 'content-type': NDJSON } });
}
