import 'server-only';

/**
 * The answers a route file builds itself, where the status or headers depend on the outcome
 * rather than on the route (route() sends every other answer).
 */

/** 202 `{}`: the change was asked for and happens later (a cancel reaches the worker by pub/sub). */
export const accepted = (): Response => Response.json({}, { status: 202 });

/** Bytes as a file download named `filename`. */
export const attachment = (bytes: Uint8Array, filename: string): Response =>
  new Response(Buffer.from(bytes), {
    headers: {
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${encodeURIComponent(filename)}"`,
    },
  });
