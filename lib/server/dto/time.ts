import 'server-only';

/** ISO-8601 UTC without milliseconds, as the API writes its second-precision times. */
export const iso = (d: Date | null): string | null => (d ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : null);

/** Unix seconds as {@link iso}; 0 (never) is null. */
export const isoSec = (s: number): string | null => (s > 0 ? iso(new Date(s * 1000)) : null);
