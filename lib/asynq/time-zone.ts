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
  const at = Math.floor(ms / 1000) * 1000;
  const p = Object.fromEntries(formatter(timeZone).formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const year = p.era === 'BC' ? 1 - Number(p.year) : Number(p.year);
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(p.month) - 1, Number(p.day));
  wall.setUTCHours(Number(p.hour), Number(p.minute), Number(p.second), 0);
  return wall.getTime() - at;
}

/**
 * `now` moved by `days` calendar days in `timeZone`, keeping the wall-clock time, as Go's
 * `now.In(zone).AddDate(0, 0, days)`: the wall time is read in the zone, its date moved, and
 * turned back into an instant with Go's rule for a wall time a summer-time change skips or
 * repeats (the offset at that wall time read as UTC, checked once against the instant it
 * gives). For UTC it is exactly days × 24 h.
 */
export function addDaysInZone(now: Date, days: number, timeZone: string): Date {
  const wall = new Date(now.getTime() + offsetAt(now.getTime(), timeZone));
  wall.setUTCDate(wall.getUTCDate() + days);
  const w = wall.getTime();
  const guess = offsetAt(w, timeZone);
  return new Date(w - offsetAt(w - guess, timeZone));
}
