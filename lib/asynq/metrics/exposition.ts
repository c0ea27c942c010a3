/**
 * Prometheus text exposition format 0.0.4: the families a scrape returns, written out.
 * https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */

export type MetricType = 'gauge' | 'counter';

/** Label pairs in the order they are written. */
export type Labels = readonly (readonly [name: string, value: string])[];

/**
 * A sample's labels: pairs, or the pairs already written by {@link renderLabels} — what a
 * family of one series per queue uses, so each queue's label is escaped once per scrape, not
 * once per family (25,000 queues × 14 series).
 */
export interface Sample {
  labels: Labels | RenderedLabels;
  value: number;
}

/** Label pairs written out (`queue="a",state="b"`), from {@link renderLabels}. */
export interface RenderedLabels {
  readonly text: string;
}

/**
 * A family's samples as two parallel columns: each series' labels already written out (what
 * {@link renderLabels} gives, `''` for none) and its value. What a family of one series per
 * queue uses: at 25,000 queues it writes 25,000 lines without an object or a generator step
 * per line, which took as long as reading every queue's stats from Redis.
 */
export interface Series {
  readonly labels: readonly string[];
  readonly values: ArrayLike<number>;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  /** The samples: a few as objects, or many as {@link Series} columns. */
  samples: Iterable<Sample> | Series;
}

/** The Content-Type of format 0.0.4, what Prometheus asks for first. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/**
 * A label value between double quotes. Queue names are arbitrary strings: backslash, double
 * quote and line feed are the three characters the format requires escaping; everything else,
 * unicode included, is written as is (the body is UTF-8).
 */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** HELP text escapes only backslash and line feed. */
export function escapeHelp(help: string): string {
  return help.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));
}

/**
 * A sample value as Go's ParseFloat (Prometheus' parser) reads it. Integers are written in full
 * (`1000000`, where Go's client library writes `1e+06`): the same number, easier to read.
 */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/**
 * `pairs` written as the text between a sample's braces, values escaped. Throws on a label
 * name the format does not allow (a programming error, never data).
 */
export function renderLabels(pairs: Labels): RenderedLabels {
  let text = '';
  for (const [k, v] of pairs) {
    if (!LABEL_NAME.test(k)) throw new Error(`invalid label name "${k}"`);
    text += `${text === '' ? '' : ','}${k}="${escapeLabelValue(v)}"`;
  }
  return { text };
}

function labelText(labels: Labels | RenderedLabels): string {
  return 'text' in labels ? labels.text : renderLabels(labels).text;
}

/** Samples given as objects, as columns. */
function columns(samples: Iterable<Sample>): Series {
  const labels: string[] = [];
  const values: number[] = [];
  for (const { labels: l, value } of samples) {
    labels.push(labelText(l));
    values.push(value);
  }
  return { labels, values };
}

/** Lines per chunk of {@link expositionChunks}: about 60 KB of text. */
const CHUNK_LINES = 1_000;

/**
 * The exposition text of `families` in chunks of at most CHUNK_LINES lines, families sorted by
 * name as Go's client library sorts them. A family without samples is left out, as Go's
 * registry leaves it out. Throws on a metric or label name the format does not allow (a
 * programming error, never data). In chunks so a caller can compress or send the text as it is
 * written: 25,000 queues make 17 MB of it, which need never exist whole.
 */
export function* expositionChunks(families: readonly MetricFamily[]): Generator<string> {
  const sorted = [...families].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let chunk = '';
  let lines = 0;
  for (const f of sorted) {
    if (!METRIC_NAME.test(f.name)) throw new Error(`invalid metric name "${f.name}"`);
    const { labels, values } = Symbol.iterator in f.samples ? columns(f.samples) : f.samples;
    // A family without samples writes nothing, not even its header.
    if (labels.length === 0) continue;
    chunk += `# HELP ${f.name} ${escapeHelp(f.help)}\n# TYPE ${f.name} ${f.type}\n`;
    const bare = `${f.name} `;
    const open = `${f.name}{`;
    for (let i = 0; i < labels.length; i++) {
      const text = labels[i]!;
      chunk += text === '' ? `${bare}${formatValue(values[i]!)}\n` : `${open}${text}} ${formatValue(values[i]!)}\n`;
      if (++lines === CHUNK_LINES) {
        yield chunk;
        chunk = '';
        lines = 0;
      }
    }
  }
  if (chunk !== '') yield chunk;
}

/** The exposition text of `families` in one string (see {@link expositionChunks}). */
export function renderExposition(families: readonly MetricFamily[]): string {
  let out = '';
  for (const chunk of expositionChunks(families)) out += chunk;
  return out;
}
