/**
 * The few Go standard-library string rules the cron parser leans on, so a spec splits, trims
 * and fails here exactly where robfig/cron does under Go.
 */
import { goQuote } from '../../errors';

/** Go's unicode.IsSpace set (strings.Fields, strings.TrimSpace); JS `\s` differs (U+0085, U+FEFF). */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const SPACES = new RegExp(`${GO_SPACE}+`, 'u');
const EDGES = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'gu');

/** strings.Fields */
export function goFields(s: string): string[] {
  return s.split(SPACES).filter((f) => f !== '');
}

/** strings.TrimSpace */
export function goTrimSpace(s: string): string {
  return s.replace(EDGES, '');
}

/** fmt's `%s` of a []string: `[a b c]`. */
export function goStringSlice(xs: string[]): string {
  return `[${xs.join(' ')}]`;
}

/**
 * strconv.Atoi on a 64-bit platform, value as a bigint (a spec's number may exceed 2^53 and
 * still be printed in an error), or Go's error: `strconv.Atoi: parsing "x": invalid syntax`,
 * or `... value out of range` past int64.
 */
export function goAtoi(s: string): bigint {
  const bad = (why: string) => new Error(`strconv.Atoi: parsing ${goQuote(s)}: ${why}`);
  let i = s[0] === '+' || s[0] === '-' ? 1 : 0;
  if (i === s.length) throw bad('invalid syntax');
  const limit = s[0] === '-' ? 1n << 63n : (1n << 63n) - 1n;
  let n = 0n;
  // ParseUint's order: a bad character fails as syntax, overflow as range, whichever comes first.
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) throw bad('invalid syntax');
    n = n * 10n + BigInt(c - 48);
    if (n > (1n << 64n) - 1n) throw bad('value out of range');
  }
  if (n > limit) throw bad('value out of range');
  return s[0] === '-' ? -n : n;
}
