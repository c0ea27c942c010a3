/**
 * The cron parser and next-fire walk on their own. Expected times are what robfig/cron v3
 * printed for the same spec and instant (tests/go cron-next); the interop suite
 * (tests/interop/worker/cron-next-robfig.test.ts) compares thousands more live.
 */
import { describe, expect, it } from 'vitest';
import { GO_ZERO_TIME_MS, nextFireTime } from '@/lib/asynq/worker/scheduler/cron-next';
import { parseCronSpec, type SpecSchedule } from '@/lib/asynq/worker/scheduler/cron-spec';
import { parseGoDuration } from '@/lib/asynq/worker/scheduler/go-duration';

const spec = (s: string) => parseCronSpec(s) as SpecSchedule;
const values = (s: string, field: 'minute' | 'hour' | 'dom' | 'month' | 'dow') => [...spec(s)[field].values].sort((a, b) => a - b);

/** `n` successive fire times after `from`, as ISO strings; `location` is the scheduler's zone. */
function fires(s: string, from: string, n: number, location = 'UTC'): string[] {
  const schedule = parseCronSpec(s);
  const out: string[] = [];
  let t = new Date(from);
  for (let i = 0; i < n; i++) {
    t = nextFireTime(schedule, t, location);
    out.push(t.getTime() === GO_ZERO_TIME_MS ? 'zero' : t.toISOString());
  }
  return out;
}

describe('parseCronSpec', () => {
  it('reads lists, ranges, steps and names', () => {
    expect(values('0,15,30,45 * * * *', 'minute')).toEqual([0, 15, 30, 45]);
    expect(values('* 9-17/2 * * *', 'hour')).toEqual([9, 11, 13, 15, 17]);
    expect(values('5/20 * * * *', 'minute')).toEqual([5, 25, 45]);
    expect(values('* * * JAN,apr,Jul-sep *', 'month')).toEqual([1, 4, 7, 8, 9]);
    expect(values('* * * * mon-FRI', 'dow')).toEqual([1, 2, 3, 4, 5]);
    expect(values('1,,2 * * * *', 'minute')).toEqual([1, 2]);
    expect(values('+5 * * * *', 'minute')).toEqual([5]);
  });

  it('marks `*` and `?` (and `*/1`, not `*/2`) as unrestricted, the OR rule’s test', () => {
    expect([spec('* * * * *').dom.star, spec('* * ? * *').dom.star, spec('* * */1 * *').dom.star, spec('* * */2 * *').dom.star, spec('* * 1-31 * *').dom.star]).toEqual([true, true, true, false, false]);
    // robfig reads `*-…` as `*`.
    expect(spec('*-9 * * * *').minute).toEqual(spec('* * * * *').minute);
  });

  it('knows the descriptors and rounds @every to whole seconds, at least one', () => {
    expect(values('@weekly', 'dow')).toEqual([0]);
    expect(values('@hourly', 'hour')).toHaveLength(24);
    expect([values('@yearly', 'month'), values('@annually', 'dom'), values('@monthly', 'dom')]).toEqual([[1], [1], [1]]);
    expect(['@every 1h30m', '@every 1.9s', '@every 500ms', '@every 0s', '@every -5s'].map((s) => parseCronSpec(s))).toEqual(
      [5400, 1, 1, 1, 1].map((delaySeconds) => ({ kind: 'every', delaySeconds })),
    );
  });

  it('takes a CRON_TZ= or TZ= zone, "Local" meaning the scheduler’s own', () => {
    expect(spec('CRON_TZ=Asia/Tokyo 0 9 * * *').zone).toBe('Asia/Tokyo');
    expect(spec('TZ=UTC @daily').zone).toBe('UTC');
    expect(spec('CRON_TZ=Local @daily').zone).toBeNull();
    expect(spec('0 9 * * *').zone).toBeNull();
  });

  it.each([
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['*/-2 * * * *', 'negative number (-2) not allowed: -2'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['99999999999999999999 * * * *', 'failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range'],
    ['@reboot', 'unrecognized descriptor: @reboot'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['@every 5d', 'failed to parse duration @every 5d: time: unknown unit "d" in duration "5d"'],
    ['CRON_TZ=Mars/Olympus * * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
    ['TZ=UTC', 'missing schedule after the time zone: TZ=UTC'],
  ])('refuses %j: %s', (s, message) => {
    expect(() => parseCronSpec(s)).toThrow(message);
  });
});

describe('parseGoDuration', () => {
  it('reads Go’s syntax to the nanosecond', () => {
    expect(['1h30m', '1.5s', '300ms', '-2h45m', '7µs', '0', '+.5m', '1h0m0.999999999s'].map(parseGoDuration)).toEqual(
      [5_400_000_000_000n, 1_500_000_000n, 300_000_000n, -9_900_000_000_000n, 7_000n, 0n, 30_000_000_000n, 3_600_999_999_999n],
    );
  });

  it('fails with Go’s words', () => {
    expect(() => parseGoDuration('')).toThrow('time: invalid duration ""');
    expect(() => parseGoDuration('.s')).toThrow('time: invalid duration ".s"');
    expect(() => parseGoDuration('3000000h')).toThrow('time: invalid duration "3000000h"');
    expect(() => parseGoDuration('1µx')).toThrow('time: unknown unit "\\xc2\\xb5x" in duration "1\\xc2\\xb5x"');
  });
});

describe('nextFireTime (robfig’s answers)', () => {
  it('steps fields, wraps months and years, and gives up after five years', () => {
    expect(fires('*/15 9-17 * * MON-FRI', '2024-06-10T06:13:20Z', 3, 'Europe/Paris')).toEqual(['2024-06-10T07:00:00.000Z', '2024-06-10T07:15:00.000Z', '2024-06-10T07:30:00.000Z']);
    expect(fires('59 23 31 12 *', '2024-12-31T23:59:00.000Z', 1)).toEqual(['2025-12-31T23:59:00.000Z']);
    expect(fires('0 0 29 2 *', '2024-03-01T00:00:00Z', 1)).toEqual(['2028-02-29T00:00:00.000Z']);
    expect(fires('0 0 30 2 *', '1970-01-01T00:00:00Z', 1)).toEqual(['zero']);
  });

  it('ORs day-of-month and day-of-week when both are restricted, ANDs them otherwise', () => {
    // The 13th or any Friday, midnight Paris time.
    expect(fires('0 0 13 * 5', '2024-06-10T06:13:20Z', 3, 'Europe/Paris')).toEqual(['2024-06-12T22:00:00.000Z', '2024-06-13T22:00:00.000Z', '2024-06-20T22:00:00.000Z']);
    expect(fires('0 0 ? * 5', '2024-06-10T06:13:20Z', 1)).toEqual(['2024-06-14T00:00:00.000Z']);
  });

  it('starts at the next whole second and keeps @every on whole seconds', () => {
    expect(fires('* * * * *', '2024-06-10T06:13:59.999Z', 1)).toEqual(['2024-06-10T06:14:00.000Z']);
    expect(fires('@every 1h0m0.999s', '2024-06-10T06:13:20.123Z', 1)).toEqual(['2024-06-10T07:13:20.000Z']);
  });

  it('follows summer-time changes as robfig does', () => {
    // 02:30 does not exist in Paris on 31 March 2024: robfig skips that day.
    expect(fires('30 2 * * *', '2024-03-29T23:00:00Z', 2, 'Europe/Paris')).toEqual(['2024-03-30T01:30:00.000Z', '2024-04-01T00:30:00.000Z']);
    // São Paulo's midnight of 4 November 2018 did not exist: that day is skipped too.
    expect(fires('CRON_TZ=America/Sao_Paulo 0 0 * * *', '2018-11-03T02:59:00.003Z', 2)).toEqual(['2018-11-03T03:00:00.000Z', '2018-11-05T02:00:00.000Z']);
    expect(fires('30 1 * * *', '2024-10-27T03:33:20Z', 2, 'Europe/Paris')).toEqual(['2024-10-28T00:30:00.000Z', '2024-10-29T00:30:00.000Z']);
  });
});
