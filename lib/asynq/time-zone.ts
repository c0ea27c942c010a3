/**
 * Calendar days counted in a named time zone, the way Go's `time.AddDate` counts them in a
 * process' local zone: asynq's archive cutoff is `now.AddDate(0, 0, -90)` in its server's
 * zone, so across a summer-time change it is an hour away from 90 × 24 h. Node has no zone
 * arithmetic of its own; Intl gives a zone's UTC offset at an instant, and the rest is Go's
 * `time.Date` normalisation step for step.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // Throws a RangeError for a name the runtime's zone database does not know.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when `name` is a time zone this runtime knows (an IANA name such as Europe/Paris, or UTC). */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at instant `ms`, in ms (whole seconds). */
function offsetAt(ms: number, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  const at = Math.floor(ms / 1000) * 1000;
  const p = Object.fromEntries(formatter(timeZone).formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const year = p.era === 'BC' ? 1 - Number(p.year) : Number(p.year);
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(p.month) - 1, Number(p.day));
  wall.setUTCHours(Number(p.hour), Number(p.minute), Number(p.second), 0);
  return wall.getTime() - at;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Per zone: a day or hour bucket → its one offset. Bounded; dropped whole when full. */
const steadyOffsets = new Map<string, Map<number, number>>();
const STEADY_CAP = 20_000;

/**
 * {@link offsetAt}, remembered per day (or, for a day with a change, per hour) once the
 * bucket's first and last second agree: Intl costs ~20 µs a call and a cron search reads the
 * wall clock hundreds of times, nearly always within a few buckets. A bucket whose ends
 * differ is never cached, so every instant near a change is read exactly. (It assumes no zone
 * changes its offset and back within one day, which tzdata never does.)
 */
export function steadyOffsetAt(ms: number, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  let cache = steadyOffsets.get(timeZone);
  if (!cache) steadyOffsets.set(timeZone, (cache = new Map<number, number>()));
  for (const size of [DAY_MS, HOUR_MS]) {
    const start = Math.floor(ms / size) * size;
    const key = size === DAY_MS ? start : -start - 1;
    const known = cache.get(key);
    if (known !== undefined) return known;
    const first = offsetAt(start, timeZone);
    if (first === offsetAt(start + size - 1000, timeZone)) {
      if (cache.size >= STEADY_CAP) cache.clear();
      cache.set(key, first);
      return first;
    }
  }
  return offsetAt(ms, timeZone);
}

/**
 * `now` moved by `days` calendar days in `timeZone`, keeping the wall-clock time, as Go's
 * `now.In(zone).AddDate(0, 0, days)`: the wall time is read in the zone, its date moved, and
 * turned back into an instant with Go's rule for a wall time a summer-time change skips or
 * repeats (the offset at that wall time read as UTC, checked once against the instant it
 * gives). For UTC it is exactly days × 24 h.
 */
export function addDaysInZone(now: Date, days: number, timeZone: string): Date {
  const wall = new Date(now.getTime() + steadyOffsetAt(now.getTime(), timeZone));
  wall.setUTCDate(wall.getUTCDate() + days);
  return new Date(instantOfWall(wall.getTime(), timeZone));
}

/**
 * The instant (ms) whose wall-clock time in `timeZone` is `wall` (a wall time written as if it
 * were UTC ms), by Go's `time.Date` rule: the offset at `wall` read as an instant, and if the
 * instant that gives lies in another offset (a skipped or repeated hour), that offset instead.
 */
export function instantOfWall(wall: number, timeZone: string): number {
  const guess = steadyOffsetAt(wall, timeZone);
  return wall - steadyOffsetAt(wall - guess, timeZone);
}

/** The wall-clock fields of instant `ms` in `timeZone`, as Go's `t.In(zone)` reads them. */
export interface WallClock {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday */
  weekday: number;
  /** The wall time written as UTC ms (input to {@link instantOfWall}). */
  wall: number;
}

export function wallClock(ms: number, timeZone: string): WallClock {
  const wall = ms + steadyOffsetAt(ms, timeZone);
  const d = new Date(wall);
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
    hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay(), wall,
  };
}
