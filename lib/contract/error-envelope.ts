/**
 * The API's one error shape, `{ error: { code, message, ...details } }`: every non-2xx JSON
 * answer and the `{"error":…}` line that ends a failed NDJSON stream. Read and written here by
 * the server's error mapping and the browser's fetcher alike. No zod: the browser bundle loads
 * this module, and the envelope is checked by hand (see lib/query/contracts.ts).
 */

export interface ErrorEnvelope {
  error: { code: string; message: string } & Record<string, unknown>;
}

/** An API failure with its status and the contract's error code (`redis_unavailable`, `task_not_found`, …). */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The envelope that carries this error over the wire. */
  toEnvelope(): ErrorEnvelope {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}

/** The error an envelope carries (with `status`), or null when `body` is not an envelope. */
export function readErrorEnvelope(status: number, body: unknown): ApiError | null {
  const e = (body as { error?: unknown } | null)?.error;
  if (typeof e !== 'object' || e === null) return null;
  const { code, message, ...details } = e as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return new ApiError(status, code, message, details);
}
