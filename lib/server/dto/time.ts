import 'server-only';

/**
 * ISO-8601 UTC text of a time, written by hand: a page of 20 tasks writes 40-60 of them, and
 * Date#toISOString (about 1 µs) with a regex replace and, under Next's server, the patched Date
 * constructor cost 3-4 µs a time, where this costs about 0.1 µs. The text is exactly
 * toISOString's (without the milliseconds when asked); a time outside years 0-9999, which
 * toISOString writes with a six-digit signed year (or throws on), goes through it as before.
 */

/** Milliseconds of years 0000-01-01 to 9999-12-31T23:59:59.999Z, where the text has four-digit years. */
const MIN_MS = -62167219200000;
const MAX_MS = 253402300799999;
const DAY_MS = 86_400_000;

/** Character codes of the tens and units digits of `n` (0-99), and of '-', 'T', ':', '.', 'Z'. */
const tens = (n: number): number => 48 + Math.floor(n / 10);
const units = (n: number): number => 48 + (n % 10);
const [DASH, T, COLON, DOT, Z] = [0x2d, 0x54, 0x3a, 0x2e, 0x5a];

/**
 * `ms` (Unix milliseconds, an integer) as toISOString writes it, with or without the
 * milliseconds. Days to a civil date by H. Hinnant's `civil_from_days`, in the proleptic
 * Gregorian calendar, as Date.
 */
function isoText(ms: number, withMs: boolean): string {
  if (!(ms >= MIN_MS && ms <= MAX_MS) || !Number.isInteger(ms)) {
    const text = new Date(ms).toISOString();
    return withMs ? text : `${text.slice(0, -5)}Z`;
  }
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const ms3 = rest - second * 1000;
  // One string from its character codes: a template of the parts would leave a rope of a dozen
  // small strings per time for JSON.stringify to flatten (15 KB of garbage per page of tasks).
  const c = String.fromCharCode;
  const hi = Math.floor(year / 100);
  const lo = year % 100;
  if (!withMs) {
    return c(tens(hi), units(hi), tens(lo), units(lo), DASH, tens(month), units(month), DASH, tens(day), units(day), T,
      tens(hour), units(hour), COLON, tens(minute), units(minute), COLON, tens(second), units(second), Z);
  }
  return c(tens(hi), units(hi), tens(lo), units(lo), DASH, tens(month), units(month), DASH, tens(day), units(day), T,
    tens(hour), units(hour), COLON, tens(minute), units(minute), COLON, tens(second), units(second),
    DOT, 48 + Math.floor(ms3 / 100), tens(ms3 % 100), units(ms3 % 100), Z);
}

/** ISO-8601 UTC without milliseconds, as the API writes its second-precision times. */
export const iso = (d: Date | null): string | null => (d ? isoText(d.getTime(), false) : null);

/** Unix seconds as {@link iso}; 0 (never) is null. */
export const isoSec = (s: number): string | null => (s > 0 ? isoText(s * 1000, false) : null);

/** Unix milliseconds as ISO-8601 UTC with milliseconds, as toISOString writes them. */
export const isoMs = (ms: number): string => isoText(ms, true);
