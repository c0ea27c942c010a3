/**
 * Error signatures: a failure message with its variable parts replaced, so that
 * `order 1234 failed: "abc"` and `order 98 failed: "xyz"` land in one group.
 */

/** Signatures and example messages longer than this are cut (stack traces, dumped bodies). */
export const MAX_SIGNATURE_LENGTH = 500;

const RULES: [RegExp, string][] = [
  // Quoted strings (Go's %q, JSON, single quotes): user data more often than not.
  [/"(?:[^"\\]|\\.)*"/g, '"…"'],
  [/'(?:[^'\\]|\\.)*'/g, "'…'"],
  // UUIDs, then long hex ids (hashes, object ids, 0x… values) that hold a digit.
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  // URLs: the query string is data; numbers in the path are handled by the last rule.
  [/(\bhttps?:\/\/[^\s?#"']*)\?[^\s#"']*/gi, '$1?…'],
  [/\b\d{1,3}(?:\.\d{1,3}){3}\b/g, '<ip>'],
  // Every other run of digits, with its decimal part (ports, sizes, durations, ids).
  [/\d+(?:\.\d+)?/g, '<n>'],
];

/**
 * The signature of an error message: quoted strings become `"…"`, UUIDs `<uuid>`, long hex ids
 * `<hex>`, URL query strings `?…`, IPv4 addresses `<ip>`,
 * numbers `<n>`; whitespace runs become one space; the result
 * is cut at 500 characters. The same message always gives the same signature, and messages
 * differing only in those parts give one signature.
 */
export function errorSignature(message: string): string {
  let s = message.length > MAX_SIGNATURE_LENGTH * 4 ? message.slice(0, MAX_SIGNATURE_LENGTH * 4) : message;
  for (const [re, to] of RULES) s = s.replace(re, to);
  s = s.replace(/\s+/g, ' ').trim();
  return s.length > MAX_SIGNATURE_LENGTH ? `${s.slice(0, MAX_SIGNATURE_LENGTH)}…` : s;
}
