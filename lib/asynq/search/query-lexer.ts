/**
 * The search query's words: whitespace separates them, except inside double quotes (`\"` and
 * `\\` escape a quote and a backslash there). A word is `-`? `key op value` when it starts with
 * a key followed by `:`, `>`, `>=`, `<` or `<=` (or `:>`, `:>=`, `:<`, `:<=`), split at the
 * FIRST such operator, so `type:email:welcome` has the value `email:welcome`; any other word
 * (or a quoted phrase) is bare. The grammar is documented once, in query.ts.
 */
import { AsynqError } from '../errors';

export type QueryOp = ':' | '>' | '>=' | '<' | '<=';

export interface QueryWord {
  /** Where the word starts in the query (UTF-16 units, as JavaScript indexes strings). */
  offset: number;
  /** The word as typed, quotes and escapes included. */
  raw: string;
  /** `-key:value`; a bare word keeps its `-` (`-1` is a word, not a negation). */
  negated: boolean;
  /** Absent for a bare word or phrase. */
  key?: string | undefined;
  op?: QueryOp | undefined;
  /** Quotes removed and escapes applied. */
  value: string;
  /** The value ends in a `*` outside quotes (`type:email:*`). */
  wildcard: boolean;
}

/** A query error: a 400 naming the offset and the word, `q: at 12, "amount>abc": …`. */
export function queryError(offset: number, token: string, reason: string): AsynqError {
  const at = token === '' ? `at ${offset}` : `at ${offset}, ${JSON.stringify(token)}`;
  return new AsynqError('INVALID_ARGUMENT', 'invalid_argument', `q: ${at}: ${reason}`, 'parseSearchQuery', { field: 'q', offset, token });
}

/** A key: a letter, `_`, `$` or `@`, then letters, digits and `_ . - $ @` (dots separate a path). */
const KEYED = /^(-?)([A-Za-z_$@][\w.$@-]*)(:[<>]=?|:|[<>]=?)/;

interface Segment {
  text: string;
  quoted: boolean;
}

function readQuoted(q: string, start: number): { text: string; end: number } {
  let text = '';
  for (let i = start + 1; i < q.length; i++) {
    const c = q[i]!;
    if (c === '\\' && i + 1 < q.length) text += q[++i];
    else if (c === '"') return { text, end: i + 1 };
    else text += c;
  }
  throw queryError(start, q.slice(start), 'this quote is never closed');
}

function toWord(offset: number, raw: string, segments: Segment[]): QueryWord {
  const first = segments[0]!;
  const m = first.quoted ? null : KEYED.exec(first.text);
  const last = segments.at(-1)!;
  const wildcard = !last.quoted && last.text.endsWith('*');
  if (!m) return { offset, raw, negated: false, value: segments.map((s) => s.text).join(''), wildcard };
  const rest = [{ text: first.text.slice(m[0].length), quoted: false }, ...segments.slice(1)];
  const op = (m[3]!.length > 1 && m[3]!.startsWith(':') ? m[3]!.slice(1) : m[3]!) as QueryOp;
  const value = rest.map((s) => s.text).join('');
  if (value === '' && !rest.some((s) => s.quoted)) throw queryError(offset, raw, `${m[2]}${m[3]} needs a value (quote it to search for "")`);
  return { offset, raw, negated: m[1] === '-', key: m[2], op, value, wildcard };
}

/** The query's words in order. Throws invalid_argument at an unclosed quote or a key without a value. */
export function lexQuery(q: string): QueryWord[] {
  const words: QueryWord[] = [];
  let i = 0;
  while (i < q.length) {
    if (/\s/.test(q[i]!)) {
      i++;
      continue;
    }
    const start = i;
    const segments: Segment[] = [];
    while (i < q.length && !/\s/.test(q[i]!)) {
      if (q[i] === '"') {
        const { text, end } = readQuoted(q, i);
        segments.push({ text, quoted: true });
        i = end;
      } else {
        let j = i;
        while (j < q.length && q[j] !== '"' && !/\s/.test(q[j]!)) j++;
        segments.push({ text: q.slice(i, j), quoted: false });
        i = j;
      }
    }
    words.push(toWord(start, q.slice(start, i), segments));
  }
  return words;
}
