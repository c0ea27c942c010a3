/**
 * The pasted patterns → the list a ServeMux would be given. One pattern per line, exactly as
 * typed (asynq registers a pattern as given, spaces included); empty lines are skipped. Text
 * that starts with `[` or `{` is read as the routing file's JSON instead: an array of strings or
 * `{ "patterns": [...] }`.
 */
export interface ParsedPatterns {
  patterns: string[];
  /** The 1-based line of each pattern; null for JSON input. */
  lines: (number | null)[];
  /** Lines whose pattern starts or ends with a space or tab: asynq keeps those, which is rarely meant. */
  padded: number[];
  /** Why the text could not be read (JSON that does not parse or has the wrong shape). */
  problem: string | null;
}

function fromJson(text: string): ParsedPatterns {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { patterns: [], lines: [], padded: [], problem: `This looks like JSON but does not parse: ${err instanceof Error ? err.message : String(err)}` };
  }
  const list = Array.isArray(v) ? (v as unknown[]) : (v as { patterns?: unknown } | null)?.patterns;
  if (!Array.isArray(list) || !list.every((p): p is string => typeof p === 'string')) {
    return { patterns: [], lines: [], padded: [], problem: 'JSON must be an array of strings, or { "patterns": [strings] }.' };
  }
  return { patterns: list, lines: list.map(() => null), padded: [], problem: null };
}

export function parsePatterns(text: string): ParsedPatterns {
  const head = text.trimStart()[0];
  if (head === '[' || head === '{') return fromJson(text.trim());
  const out: ParsedPatterns = { patterns: [], lines: [], padded: [], problem: null };
  text.split(/\r?\n/).forEach((line, i) => {
    if (line === '') return;
    out.patterns.push(line);
    out.lines.push(i + 1);
    if (/^\s|\s$/.test(line)) out.padded.push(i + 1);
  });
  return out;
}
