/**
 * Prometheus text exposition format 0.0.4: the families a scrape returns, written out.
 * https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */

export type MetricType = 'gauge' | 'counter';

/** Label pairs in the order they are written. */
export type Labels = readonly (readonly [name: string, value: string])[];

export interface Sample {
  labels: Labels;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: readonly Sample[];
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

function sampleLine(name: string, { labels, value }: Sample): string {
  if (labels.length === 0) return `${name} ${formatValue(value)}`;
  const pairs = labels.map(([k, v]) => {
    if (!LABEL_NAME.test(k)) throw new Error(`metric ${name}: invalid label name "${k}"`);
    return `${k}="${escapeLabelValue(v)}"`;
  });
  return `${name}{${pairs.join(',')}} ${formatValue(value)}`;
}

/**
 * The exposition text of `families`, sorted by name as Go's client library sorts them. A
 * family without samples is left out, as Go's registry leaves it out. Throws on a metric or
 * label name the format does not allow (a programming error, never data).
 */
export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  const sorted = [...families].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const f of sorted) {
    if (!METRIC_NAME.test(f.name)) throw new Error(`invalid metric name "${f.name}"`);
    if (f.samples.length === 0) continue;
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) lines.push(sampleLine(f.name, s));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
