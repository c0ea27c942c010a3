/**
 * Go's `time.ParseDuration`, for the `@every <duration>` cron descriptor: a signed sequence of
 * decimal numbers with units (`1h30m`, `1.5s`, `300ms`, `-2h45m`; units ns us µs μs ms s m h),
 * with Go's overflow rules and error texts (`time: invalid duration "x"`), since a spec Go
 * refuses must be refused here with the same words.
 */

const UNIT_NS: Record<string, bigint> = {
  ns: 1n, us: 1_000n, 'µs': 1_000n, 'μs': 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n,
};
const TWO_63 = 1n << 63n;

/** Go's time-package quoting: `"` and `\` escaped, bytes outside printable ASCII as \xHH. */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const b of Buffer.from(s, 'utf8')) {
    if (b >= 0x80 || b < 0x20) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += (b === 0x22 || b === 0x5c ? '\\' : '') + String.fromCharCode(b);
  }
  return `${out}"`;
}

function fail(message: string, orig: string): Error {
  return new Error(`time: ${message} ${goTimeQuote(orig)}`);
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** The duration in nanoseconds, or Go's error. */
export function parseGoDuration(orig: string): bigint {
  let s = orig;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw fail('invalid duration', orig);
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw fail('invalid duration', orig);
    // Whole part; Go's leadingInt fails past 2^63.
    let i = 0;
    let v = 0n;
    for (; isDigit(s[i]); i++) {
      if (v > TWO_63 / 10n) throw fail('invalid duration', orig);
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > TWO_63) throw fail('invalid duration', orig);
    }
    const pre = i > 0;
    s = s.slice(i);
    // Fraction; Go's leadingFraction stops gaining precision instead of failing.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let overflow = false;
      for (i = 0; isDigit(s[i]); i++) {
        if (overflow) continue;
        if (f > (TWO_63 - 1n) / 10n) { overflow = true; continue; }
        const y = f * 10n + BigInt(s.charCodeAt(i) - 48);
        if (y > TWO_63) { overflow = true; continue; }
        f = y;
        scale *= 10;
      }
      post = i > 0;
      s = s.slice(i);
    }
    if (!pre && !post) throw fail('invalid duration', orig);
    for (i = 0; i < s.length && !(s[i] === '.' || isDigit(s[i])); i++);
    if (i === 0) throw fail('missing unit in duration', orig);
    const u = s.slice(0, i);
    s = s.slice(i);
    const unit = UNIT_NS[u];
    if (unit === undefined) throw fail(`unknown unit ${goTimeQuote(u)} in duration`, orig);
    if (v > TWO_63 / unit) throw fail('invalid duration', orig);
    v *= unit;
    if (f > 0n) {
      // Go computes the fraction in float64 (exact to the nanosecond up to an hour's worth).
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO_63) throw fail('invalid duration', orig);
    }
    d += v;
    if (d > TWO_63) throw fail('invalid duration', orig);
  }
  if (neg) return -d;
  if (d > TWO_63 - 1n) throw fail('invalid duration', orig);
  return d;
}
