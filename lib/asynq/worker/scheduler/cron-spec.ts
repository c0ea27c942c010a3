/**
 * Cron specs as asynq's Scheduler reads them: robfig/cron v3's standard parser (what
 * `cron.New(cron.WithLocation(loc))` uses). Five fields (minute hour day-of-month month
 * day-of-week) of lists, ranges, steps, `*` and `?`, month and weekday names; the descriptors
 * @yearly @annually @monthly @weekly @daily @midnight @hourly and `@every <Go duration>`; and
 * an optional `CRON_TZ=<zone> ` or `TZ=<zone> ` prefix. Refusals carry robfig's words.
 */
import { isTimeZone } from '../../time-zone';
import { parseGoDuration } from './go-duration';
import { goAtoi, goFields, goStringSlice, goTrimSpace } from './go-strings';

/** One field: the values it allows, and whether it was written as `*` or `?` (the OR rule's test). */
export interface CronField {
  values: ReadonlySet<number>;
  star: boolean;
}

export interface SpecSchedule {
  kind: 'spec';
  minute: CronField;
  hour: CronField;
  dom: CronField;
  month: CronField;
  dow: CronField;
  /** The CRON_TZ zone; null: the scheduler's location (robfig's time.Local). */
  zone: string | null;
}

/** `@every`: a fixed delay, whole seconds, at least one (robfig's cron.Every). */
export interface EverySchedule {
  kind: 'every';
  delaySeconds: number;
}

export type CronSchedule = SpecSchedule | EverySchedule;

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

/**
 * A zone as Go's time.LoadLocation takes it: "" and "UTC" are UTC, "Local" is the scheduler's
 * own location (null), else an IANA name. Go reads zone files by exact name, so a name this
 * runtime knows only by another spelling of its case is refused too.
 */
export function loadLocation(name: string): string | null {
  if (name === '' || name === 'UTC') return 'UTC';
  if (name === 'Local') return null;
  if (name.includes('..') || name[0] === '/' || name[0] === '\\') throw new Error('time: invalid location name');
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) || !isTimeZone(name) || sameButCase(name)) throw new Error(`unknown time zone ${name}`);
  return name;
}

function sameButCase(name: string): boolean {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  return resolved !== name && resolved.toLowerCase() === name.toLowerCase();
}

/** Parses `spec` as asynq's Scheduler.Register would, or throws robfig's error. */
export function parseCronSpec(input: string): CronSchedule {
  if (input.length === 0) throw new Error('empty spec string');
  let spec = input;
  let zone: string | null = null;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const i = spec.indexOf(' ');
    // robfig slices spec[eq+1:-1] here and panics; a clear refusal is the better twin.
    if (i < 0) throw new Error(`missing schedule after the time zone: ${spec}`);
    const name = spec.slice(spec.indexOf('=') + 1, i);
    try {
      zone = loadLocation(name);
    } catch (err) {
      throw new Error(`provided bad location ${name}: ${(err as Error).message}`);
    }
    spec = goTrimSpace(spec.slice(i));
  }
  if (spec.startsWith('@')) return parseDescriptor(spec, zone);
  const fields = goFields(spec);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: ${goStringSlice(fields)}`);
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  return {
    kind: 'spec',
    minute: parseField(minute, MINUTES),
    hour: parseField(hour, HOURS),
    dom: parseField(dom, DOM),
    month: parseField(month, MONTHS),
    dow: parseField(dow, DOW),
    zone,
  };
}

/** A comma list of ranges; empty items are skipped, as strings.FieldsFunc does. */
function parseField(field: string, b: Bounds): CronField {
  const values = new Set<number>();
  let star = false;
  for (const expr of field.split(',').filter((r) => r !== '')) {
    const r = parseRange(expr, b);
    r.values.forEach((v) => values.add(v));
    star ||= r.star;
  }
  return { values, star };
}

/** `*`, `?`, `n`, `a-b`, each with an optional `/step`; `n/step` runs from n to the maximum. */
function parseRange(expr: string, b: Bounds): { values: number[]; star: boolean } {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: bigint;
  let end: bigint;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    // robfig ignores anything after `*-`.
    [start, end, star] = [BigInt(b.min), BigInt(b.max), true];
  } else {
    start = intOrName(lowAndHigh[0]!, b);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = intOrName(lowAndHigh[1]!, b);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1n;
  if (rangeAndStep.length === 2) {
    step = nonNegativeInt(rangeAndStep[1]!);
    if (lowAndHigh.length === 1) end = BigInt(b.max);
    if (step > 1n) star = false;
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expr}`);
  }
  if (start < b.min) throw new Error(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new Error(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0n) throw new Error(`step of range should be a positive number: ${expr}`);
  const values: number[] = [];
  for (let v = start; v <= end; v += step) values.push(Number(v));
  return { values, star };
}

function intOrName(expr: string, b: Bounds): bigint {
  const key = expr.toLowerCase();
  return b.names && Object.hasOwn(b.names, key) ? BigInt(b.names[key]!) : nonNegativeInt(expr);
}

function nonNegativeInt(expr: string): bigint {
  let n: bigint;
  try {
    n = goAtoi(expr);
  } catch (err) {
    throw new Error(`failed to parse int from ${expr}: ${(err as Error).message}`);
  }
  if (n < 0n) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

const FIRST: CronField = { values: new Set([0]), star: false };
const all = (b: Bounds): CronField => ({ values: new Set(Array.from({ length: b.max - b.min + 1 }, (_, i) => b.min + i)), star: true });
const only = (v: number): CronField => ({ values: new Set([v]), star: false });

function parseDescriptor(descriptor: string, zone: string | null): CronSchedule {
  const at = (dom: CronField, month: CronField, dow: CronField, hour = FIRST): SpecSchedule => ({ kind: 'spec', minute: FIRST, hour, dom, month, dow, zone });
  switch (descriptor) {
    case '@yearly':
    case '@annually':
      return at(only(1), only(1), all(DOW));
    case '@monthly':
      return at(only(1), all(MONTHS), all(DOW));
    case '@weekly':
      return at(all(DOM), all(MONTHS), only(0));
    case '@daily':
    case '@midnight':
      return at(all(DOM), all(MONTHS), all(DOW));
    case '@hourly':
      return at(all(DOM), all(MONTHS), all(DOW), all(HOURS));
  }
  const every = '@every ';
  if (!descriptor.startsWith(every)) throw new Error(`unrecognized descriptor: ${descriptor}`);
  let ns: bigint;
  try {
    ns = parseGoDuration(descriptor.slice(every.length));
  } catch (err) {
    throw new Error(`failed to parse duration ${descriptor}: ${(err as Error).message}`);
  }
  // cron.Every: under a second becomes a second; the rest is cut to whole seconds.
  return { kind: 'every', delaySeconds: ns < 1_000_000_000n ? 1 : Number(ns / 1_000_000_000n) };
}
