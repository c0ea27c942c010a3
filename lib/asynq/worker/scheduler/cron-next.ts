/**
 * When a cron schedule fires next, step for step as robfig/cron v3 computes it (SpecSchedule.Next,
 * ConstantDelaySchedule.Next), so our Scheduler's `next` times are Go's to the second:
 *
 * - the search starts at the next whole second and walks month → day → hour → minute → second,
 *   going back to the month whenever a field wraps, and gives up after five years (Go's zero
 *   time, which a Go scheduler never fires);
 * - day-of-month and day-of-week are ANDed when either was written `*` or `?`, ORed otherwise;
 * - wall times are read in the spec's CRON_TZ zone, else the scheduler's location; a midnight a
 *   summer-time change skips or repeats is nudged by robfig's own rule (hour > 12: forward to the
 *   next midnight, else back), and a wall time in a skipped hour lands where Go's time.Date puts it.
 */
import { instantOfWall, wallClock, type WallClock } from '../../time-zone';
import type { CronSchedule, SpecSchedule } from './cron-spec';

/** Go's zero time.Time (0001-01-01T00:00:00Z): "no time within five years". */
export const GO_ZERO_TIME_MS = -62_135_596_800_000;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** A non-negative remainder, as Go's time keeps a positive sub-unit part before 1970 too. */
const mod = (a: number, b: number) => ((a % b) + b) % b;

/** The first fire time strictly after `after`; `location` is the scheduler's zone. */
export function nextFireTime(schedule: CronSchedule, after: Date, location: string): Date {
  const t = after.getTime();
  if (schedule.kind === 'every') return new Date(t + schedule.delaySeconds * SECOND - mod(t, SECOND));
  return new Date(nextSpecTime(schedule, t, schedule.zone ?? location));
}

function dayMatches(s: SpecSchedule, w: WallClock): boolean {
  const dom = s.dom.values.has(w.day);
  const dow = s.dow.values.has(w.weekday);
  return s.dom.star || s.dow.star ? dom && dow : dom || dow;
}

function nextSpecTime(s: SpecSchedule, from: number, zone: string): number {
  /** Go's time.Date(y, mo, d, h, mi, sec, 0, zone); JS Date normalises overflow as Go does. */
  const date = (y: number, mo: number, d: number, h: number, mi: number, sec: number) => {
    const wall = new Date(0);
    wall.setUTCFullYear(y, mo - 1, d);
    wall.setUTCHours(h, mi, sec, 0);
    return instantOfWall(wall.getTime(), zone);
  };
  let t = from + SECOND - mod(from, SECOND);
  let w = wallClock(t, zone);
  const set = (next: number) => {
    t = next;
    w = wallClock(t, zone);
  };
  let added = false;
  const yearLimit = w.year + 5;

  wrap: for (;;) {
    if (w.year > yearLimit) return GO_ZERO_TIME_MS;

    while (!s.month.values.has(w.month)) {
      if (!added) {
        added = true;
        set(date(w.year, w.month, 1, 0, 0, 0));
      }
      set(date(w.year, w.month + 1, w.day, w.hour, w.minute, w.second));
      if (w.month === 1) continue wrap;
    }

    while (!dayMatches(s, w)) {
      if (!added) {
        added = true;
        set(date(w.year, w.month, w.day, 0, 0, 0));
      }
      set(date(w.year, w.month, w.day + 1, w.hour, w.minute, w.second));
      if (w.hour !== 0) set(t + (w.hour > 12 ? 24 - w.hour : -w.hour) * HOUR);
      if (w.day === 1) continue wrap;
    }

    while (!s.hour.values.has(w.hour)) {
      if (!added) {
        added = true;
        set(date(w.year, w.month, w.day, w.hour, 0, 0));
      }
      set(t + HOUR);
      if (w.hour === 0) continue wrap;
    }

    while (!s.minute.values.has(w.minute)) {
      if (!added) {
        added = true;
        set(t - mod(t, MINUTE));
      }
      set(t + MINUTE);
      if (w.minute === 0) continue wrap;
    }

    // The standard parser's seconds field is always 0.
    while (w.second !== 0) {
      if (!added) {
        added = true;
        set(t - mod(t, SECOND));
      }
      set(t + SECOND);
      if (w.second === 0) continue wrap;
    }

    return t;
  }
}
