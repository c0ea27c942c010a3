/**
 * Where each value of a JSON text starts, by path (`groups.1.patterns.0`), so a routing file's
 * problems name their line. The text has already passed JSON.parse: this walk only tracks
 * positions and never judges syntax. O(length of the text).
 */

/** 1-based line of each value's first character, keyed by its dotted path ('' for the root). */
export function jsonLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) {
      if (text[i] === '\n') line++;
      i++;
    }
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    ws();
    lines.set(path, line);
    const c = text[i];
    const at = (k: string | number) => (path === '' ? String(k) : `${path}.${k}`);
    if (c === '{') {
      i++;
      for (ws(); text[i] !== '}'; ws()) {
        if (text[i] === ',') {
          i++;
          ws();
        }
        const key = str();
        ws();
        i++; // ':'
        value(at(key));
      }
      i++;
    } else if (c === '[') {
      i++;
      for (let n = 0, first = true; (ws(), text[i] !== ']'); first = false) {
        if (!first) i++; // ','
        value(at(n++));
      }
      i++;
    } else if (c === '"') str();
    else while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
  };
  value('');
  return lines;
}

/** The line of a character offset (a JSON.parse error's `position N`). */
export function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let j = 0; j < Math.min(offset, text.length); j++) if (text[j] === '\n') n++;
  return n;
}
