/**
 * asynq's archive cutoff is `now.AddDate(0, 0, -90)` in its process' local zone; ours is told
 * the servers' zone (ASYNQLENS_SERVER_TZ). The real Go computation (tests/go archive-cutoff,
 * time.Local set to the zone as TZ sets it) and ours must agree to the second at instants
 * chosen around summer-time changes: 90 days back landing in a skipped hour (spring) or a
 * repeated one (autumn), half-hour changes (Lord Howe), zones without summer time, and UTC.
 */
import { describe, expect, it } from 'vitest';
import { archiveCutoff } from '@/lib/asynq/mutations/archive-limits';
import { isTimeZone } from '@/lib/asynq/time-zone';
import { goHarness } from '../go-harness';

const asynqGo = goHarness('archive-cutoff');
asynqGo.requireGo('archive-cutoff-zone.test.ts');

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kolkata', 'Pacific/Chatham', 'Africa/Casablanca'];
const DAY = 86_400_000;

/** Every 30 minutes over a window around each 2024 change, shifted 90 days on, plus odd offsets. */
function instants(): number[] {
  const out: number[] = [];
  for (const change of [Date.UTC(2024, 2, 10, 7), Date.UTC(2024, 2, 31, 1), Date.UTC(2024, 3, 7, 2), Date.UTC(2024, 3, 14), Date.UTC(2024, 8, 8, 3), Date.UTC(2024, 8, 29), Date.UTC(2024, 9, 6), Date.UTC(2024, 9, 27, 1), Date.UTC(2024, 10, 3, 6)]) {
    for (let dt = -36 * 3600_000; dt <= 36 * 3600_000; dt += 30 * 60_000) out.push(change + 90 * DAY + dt + 17_123);
  }
  out.push(Date.UTC(2025, 5, 1, 12, 0, 0, 999), Date.UTC(2000, 0, 1), Date.UTC(2038, 0, 19, 3, 14, 8));
  return out;
}

describe('archive cutoff in a named zone (the rule alone)', () => {
  it('is exactly 90 × 24 h in UTC, and knows zones by IANA name', () => {
    const now = new Date(Date.UTC(2024, 5, 29, 0, 30, 0, 500));
    expect(archiveCutoff(now)).toBe(Math.floor((now.getTime() - 90 * DAY) / 1000));
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Europe/Atlantis')).toBe(false);
  });

  it('in Paris, 90 days before 02:30 on 29 June falls in the skipped hour of 31 March: 03:30 CEST, as Go gives', () => {
    expect(archiveCutoff(new Date('2024-06-29T00:30:00Z'), 'Europe/Paris')).toBe(Date.parse('2024-03-31T01:30:00Z') / 1000);
  });
});

describe.skipIf(asynqGo.noGo)('archive cutoff: ours vs Go’s AddDate in the servers’ zone', () => {
  it.each(ZONES)('%s: the same second at every instant', async (tz) => {
    const at = instants();
    const go = await asynqGo.json<number[]>('archive-cutoff', ['--tz', tz], { stdin: at });
    const ours = at.map((ms) => archiveCutoff(new Date(ms), tz));
    const differ = at.flatMap((ms, i) => (ours[i] === go[i] ? [] : [`${new Date(ms).toISOString()}: ours ${ours[i]}, Go ${go[i]}`]));
    expect(differ, `instants where the cutoffs differ (of ${at.length})`).toEqual([]);
    if (tz === 'Europe/Paris') {
      // Not vacuous: across the changes Go's cutoff is an hour off 90 × 24 h.
      expect(at.some((ms, i) => go[i] !== Math.floor((ms - 90 * DAY) / 1000))).toBe(true);
    }
  });
});
