/**
 * A strict reader of the text format for the tests: every sample with its labels unescaped,
 * and each family's HELP and TYPE. A line it cannot read fails the test that scraped it.
 */
export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Parsed {
  samples: ParsedSample[];
  help: Map<string, string>;
  type: Map<string, string>;
}

const UNESCAPE: Record<string, string> = { '\\': '\\', '"': '"', n: '\n' };

function readLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const name = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(text.slice(i));
    if (!name?.[1]) throw new Error(`bad label at ${i} in: ${line}`);
    i += name[0].length;
    let value = '';
    for (;;) {
      const c = text[i++];
      if (c === undefined) throw new Error(`unterminated label value in: ${line}`);
      if (c === '"') break;
      if (c === '\n') throw new Error(`raw line feed in label value: ${line}`);
      if (c !== '\\') {
        value += c;
        continue;
      }
      const e = UNESCAPE[text[i++] ?? ''];
      if (e === undefined) throw new Error(`bad escape in: ${line}`);
      value += e;
    }
    labels[name[1]] = value;
    if (text[i] === ',') i++;
  }
  return labels;
}

export function parseExposition(body: string): Parsed {
  const out: Parsed = { samples: [], help: new Map(), type: new Map() };
  if (body !== '' && !body.endsWith('\n')) throw new Error('body does not end with a line feed');
  for (const line of body.split('\n').slice(0, -1)) {
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (meta) {
      (meta[1] === 'HELP' ? out.help : out.type).set(meta[2]!, meta[3]!);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`unreadable line: ${JSON.stringify(line)}`);
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    if (Number.isNaN(value) && m[3] !== 'NaN') throw new Error(`bad value in: ${line}`);
    out.samples.push({ name: m[1]!, labels: m[2] ? readLabels(m[2], line) : {}, value });
  }
  return out;
}

/** The value of `name` with exactly `labels`, or undefined. */
export function valueOf(p: Parsed, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = JSON.stringify(Object.entries(labels).sort());
  return p.samples.find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === want)?.value;
}

/**
 * The first family of the console's own metrics (prom-client's default collectors register
 * first, lib/server/telemetry/registry.ts), which /metrics appends after the asynq exposition.
 */
const TELEMETRY_START = '# HELP asynqlens_process_cpu_user_seconds_total ';

/**
 * A scrape's two parts: the asynq exposition (built once per interval, the same bytes for every
 * scraper) and the console's own metrics after it (collected per scrape). Fails a scrape that
 * lacks the second.
 */
export function splitScrape(text: string): { asynq: string; telemetry: string } {
  const at = text.indexOf(`\n${TELEMETRY_START}`);
  if (at < 0 && !text.startsWith(TELEMETRY_START)) throw new Error("the scrape lacks the console's own metrics");
  const cut = at < 0 ? 0 : at + 1;
  return { asynq: text.slice(0, cut), telemetry: text.slice(cut) };
}
