/**
 * Untrusted text made visible: characters that reorder, hide or control what is around them
 * (bidi overrides and isolates, zero-width and other format characters, line and paragraph
 * separators, C0/C1 controls and DEL) become `\u202E`-style escapes. A queue named
 * `abc\u202Efdp.exe` must not read as `abcexe.pdf`, and a type with a zero-width space must
 * not pass for the type it imitates. Pure and isomorphic: the UI renders the segments
 * (components/ui/safe-text.tsx); titles, toasts and attributes take the flat string.
 */

/**
 * Every character escaped. C0 controls, DEL and C1; U+00AD soft hyphen; U+034F; U+061C arabic
 * letter mark; U+115F/U+1160 and U+3164/U+FFA0 hangul fillers (blank glyphs); U+17B4/U+17B5;
 * U+180B–U+180F mongolian selectors and vowel separator; U+200B–U+200F zero-width and LRM/RLM;
 * U+2028/U+2029 separators; U+202A–U+202E embeddings and overrides; U+2060–U+206F word joiner,
 * invisible operators, isolates (U+2066–U+2069) and deprecated format controls; U+FEFF BOM;
 * U+FFF9–U+FFFB interlinear annotations; U+1D173–U+1D17A musical format controls;
 * U+E0000–U+E007F tag characters (invisible ASCII look-alikes). Lone surrogates too: they
 * cannot be shown and would be replaced silently.
 */
const INVISIBLE_SOURCE =
  '[\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F' +
  '\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u206F\\u3164\\uFEFF\\uFFA0\\uFFF9-\\uFFFB]' +
  '|\\uD834[\\uDD73-\\uDD7A]|\\uDB40[\\uDC00-\\uDC7F]' +
  '|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';

/** The same set without tab, line feed and carriage return: for payload and error bodies. */
const INVISIBLE_KEEP_LINES_SOURCE = INVISIBLE_SOURCE.replace('\\u0000-\\u001F', '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F');

// Joiners and combining marks (U+200D, U+034F) stand alone in these classes on purpose: each
// is matched, and shown, one code unit at a time.
/* eslint-disable no-misleading-character-class */
const TEST = new RegExp(INVISIBLE_SOURCE);
const TEST_KEEP_LINES = new RegExp(INVISIBLE_KEEP_LINES_SOURCE);
const SPLIT = new RegExp(`(${INVISIBLE_SOURCE})`);
const SPLIT_KEEP_LINES = new RegExp(`(${INVISIBLE_KEEP_LINES_SOURCE})`);
const REPLACE = new RegExp(INVISIBLE_SOURCE, 'g');
const REPLACE_KEEP_LINES = new RegExp(INVISIBLE_KEEP_LINES_SOURCE, 'g');
/* eslint-enable no-misleading-character-class */

export interface DisplayOptions {
  /** Keep tab, LF and CR as they are (multi-line bodies shown in a <pre>). */
  keepLineBreaks?: boolean;
}

/** A run of text as it is, or one escaped character with its code point. */
export type DisplaySegment = { text: string; escaped: false } | { text: string; escaped: true; codePoint: number };

const SHORT: Record<number, string> = { 0x09: '\\t', 0x0a: '\\n', 0x0d: '\\r' };

/** `\u202E`, `\u{E0041}`, and `\t` `\n` `\r` for the three everyone reads. */
export function escapeChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const short = SHORT[cp];
  if (short) return short;
  const hex = cp.toString(16).toUpperCase();
  return cp > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}

/**
 * Whether `text` holds anything `escapeInvisible` would change. One regex test and no
 * allocation: the overview calls it for every name of every row, and nearly all are clean.
 */
export function hasInvisible(text: string, opts: DisplayOptions = {}): boolean {
  return (opts.keepLineBreaks ? TEST_KEEP_LINES : TEST).test(text);
}

/** `text` as runs of plain text and escaped characters, in order; one plain run when clean. */
export function escapeInvisible(text: string, opts: DisplayOptions = {}): DisplaySegment[] {
  if (!hasInvisible(text, opts)) return [{ text, escaped: false }];
  const parts = text.split(opts.keepLineBreaks ? SPLIT_KEEP_LINES : SPLIT);
  const out: DisplaySegment[] = [];
  // split() with one capturing group alternates plain text (even) and a match (odd).
  parts.forEach((part, i) => {
    if (i % 2 === 1) out.push({ text: escapeChar(part), escaped: true, codePoint: part.codePointAt(0) ?? 0 });
    else if (part !== '') out.push({ text: part, escaped: false });
  });
  return out;
}

/** The flat string with every such character escaped: page titles, toasts, tooltips, aria. */
export function escapeText(text: string, opts: DisplayOptions = {}): string {
  if (!hasInvisible(text, opts)) return text;
  return text.replace(opts.keepLineBreaks ? REPLACE_KEEP_LINES : REPLACE, escapeChar);
}

/** "U+202E" for a tooltip on an escaped character. */
export const codePointLabel = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
