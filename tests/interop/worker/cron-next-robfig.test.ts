/**
 * Our cron parser and next-fire walk against the real robfig/cron v3 that asynq's Scheduler
 * uses (tests/go `cron-next`: cron.New(cron.WithLocation(loc)).AddFunc, then Schedule.Next).
 * For every spec — hand-picked edge cases plus a few hundred generated ones — and every
 * starting instant, five successive fire times must be the same millisecond; for every bad
 * spec, the same error text.
 */
import { describe, expect, it } from 'vitest';
import { nextFireTime } from '@/lib/asynq/worker/scheduler/cron-next';
import { parseCronSpec } from '@/lib/asynq/worker/scheduler/cron-spec';
import { asynqBuilds } from '../asynq-builds';
import { ASYNQ, goHarness } from '../go-harness';

const asynqGo = goHarness('cron-next');
asynqGo.requireGo('cron-next-robfig.test.ts');
/** asynq v0.24.1, v0.25.1 and v0.26.0 all require robfig/cron v3.0.1: one run, against the newest build, judges. */
const NEWEST = ASYNQ.version === asynqBuilds()[0]!.version;

interface Case { spec: string; from: number; n: number }
interface GoResult { times: number[]; error?: string; panic?: string }

const FIXED = [
  '* * * * *', '? * * * ?', '*/5 * * * *', '0 * * * *', '30 2 * * *', '0 0 1 1 *', '15 3 29 2 *', '0 0 31 * *', '0 0 30 2 *',
  '0 0 * * 0', '0 0 * * 6', '0 0 13 * 5', '0 0 13 * *', '0 0 */10 * 1', '0 12 1-7 * 1', '0 0 ? * MON', '5 4 * * sun',
  '0 9-17/2 * * mon-fri', '0,15,30,45 * * * *', '1,,2 * * * *', '59 23 31 12 *', '0 0 1 */3 *', '0 0 1 JAN,apr,Jul,OCT *',
  '10-20/3 */7 * * *', '5/20 * * * *', '*/1 * * * *', '*-9 * * * *', '0 2 * * *', '30 2 * * *', '0 3 * * *', '30 1 * * *',
  '0 0 * * *', '30 0 * * *', '0 1 * * *', '0 23 * * *', '45 1 * * 0', '0 0 1,15 * 3', '7 7 7 7 *', '0 0 29 2 1',
  '@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly',
  '@every 1s', '@every 1m', '@every 1h30m', '@every 90m', '@every 1.5s', '@every 500ms', '@every 0s', '@every -5s',
  '@every 24h', '@every 1h0m0.999s', '@every 2562047h', '@every 7µs',
  'CRON_TZ=America/New_York 0 2 * * *', 'TZ=Europe/Paris 30 2 * * *', 'CRON_TZ=Asia/Tokyo @daily', 'CRON_TZ=UTC 0 0 * * *',
  'TZ=Australia/Lord_Howe 15 2 * * *', 'CRON_TZ=America/Sao_Paulo 0 0 * * *', 'CRON_TZ=Local 0 0 * * *', 'CRON_TZ= 0 12 * * *',
  'CRON_TZ=America/Santiago  0 0 * * *', 'CRON_TZ=America/Havana 0 0 * * *', 'CRON_TZ=Asia/Kolkata @every 2h',
  ' * * * * * ', '*\t*\t*\t*\t*', '00 01 * * *', '+5 +1 * * *', '*/+7 * * * *',
];

const BAD = [
  '', ' ', '* * * *', '* * * * * *', '60 * * * *', '* 24 * * *', '* * 0 * *', '* * 32 * *', '* * * 13 *', '* * * * 7',
  '* * * 0 *', '5-1 * * * *', '1-2-3 * * * *', '*/0 * * * *', '1/2/3 * * * *', 'x * * * *', '-1 * * * *', '*/-2 * * * *',
  '* * * foo *', '* * * * mon-foo', '99999999999999999999 * * * *', '9223372036854775807 * * * *',
  '*/99999999999999999999x * * * *', '\u00005 * * * *', '1,2,x * * * *', 'jan * * * *', '* * * * JANUARY',
  '@daily ', '@every', '@every ', '@every 5', '@every 1x', '@every 1h-30m', '@every .s', '@every  5s', '@every 9999999999h',
  '@every 5µx', '@every "5s"', '@reboot', '@Daily', 'CRON_TZ=Mars/Olympus * * * * *', 'TZ=america/new_york * * * * *',
  'TZ=../etc/passwd * * * * *', 'CRON_TZ=UTC * * * *',
];

/** Specs that make robfig panic (a TZ prefix with nothing after it); we refuse them instead. */
const PANICS = ['TZ=UTC', 'CRON_TZ=Europe/Paris', 'TZ='];

/** Deterministic generated specs: each field a list of stars, question marks, numbers, names, ranges and steps. */
function generatedSpecs(count: number): string[] {
  let seed = 20_240_331;
  const rand = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
  const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
  const item = (min: number, max: number, names?: string[]): string => {
    const v = () => {
      const x = min + rand(max - min + 1);
      return names && rand(3) === 0 ? names[x - min]! : String(x);
    };
    switch (rand(8)) {
      case 0: return '*';
      case 1: return rand(2) ? '?' : `*/${1 + rand(max)}`;
      case 2: { const a = min + rand(max - min + 1); return `${a}-${a + rand(max - a + 1)}`; }
      case 3: { const a = min + rand(max - min + 1); return `${a}-${a + rand(max - a + 1)}/${1 + rand(7)}`; }
      case 4: return `${v()}/${1 + rand(max)}`;
      default: return v();
    }
  };
  const field = (min: number, max: number, names?: string[]) => Array.from({ length: 1 + (rand(4) === 0 ? rand(3) : 0) }, () => item(min, max, names)).join(',');
  return Array.from({ length: count }, () => [field(0, 59), field(0, 23), field(1, 31), field(1, 12, MONTHS), field(0, 6, DAYS)].join(' '));
}

/** Instants around 2024's summer-time changes (and a few plain ones), none on a whole second. */
const INSTANTS = [
  Date.UTC(2024, 2, 10, 6, 59, 59, 500), Date.UTC(2024, 2, 31, 0, 30, 0, 1), Date.UTC(2024, 3, 6, 14, 45, 12, 250),
  Date.UTC(2024, 8, 7, 2, 59, 59, 999), Date.UTC(2024, 9, 27, 0, 10, 0, 7), Date.UTC(2024, 10, 3, 5, 0, 0, 900),
  Date.UTC(2018, 10, 3, 2, 59, 0, 3), Date.UTC(2024, 1, 28, 23, 59, 59, 999), Date.UTC(2025, 11, 31, 23, 0, 0, 42),
  Date.UTC(2024, 5, 15, 12, 34, 56, 789),
];

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'America/Sao_Paulo', 'America/Havana', 'Asia/Kolkata'];
const SPECS = [...FIXED, ...generatedSpecs(120)];

function ours(c: Case, location: string): GoResult {
  let schedule;
  try {
    schedule = parseCronSpec(c.spec);
  } catch (err) {
    return { times: [], error: (err as Error).message };
  }
  const times: number[] = [];
  let t = new Date(c.from);
  for (let i = 0; i < c.n; i++) {
    t = nextFireTime(schedule, t, location);
    times.push(t.getTime());
    if (t.getTime() === -62_135_596_800_000) break;
  }
  return { times };
}

describe.skipIf(asynqGo.noGo || !NEWEST)('cron specs: ours vs robfig/cron v3', () => {
  it.each(ZONES)('scheduler location %s: the same five fire times from every instant', async (location) => {
    const cases: Case[] = SPECS.flatMap((spec) => INSTANTS.map((from) => ({ spec, from, n: 5 })));
    const go = await asynqGo.json<GoResult[]>('cron-next', ['--location', location], { stdin: cases, timeoutMs: 60_000 });
    const started = performance.now();
    const differ = cases.flatMap((c, i) => {
      const o = ours(c, location);
      const g = go[i]!;
      return JSON.stringify(o) === JSON.stringify({ times: g.times, ...(g.error ? { error: g.error } : {}) })
        ? []
        : [`${c.spec} from ${new Date(c.from).toISOString()}: ours ${JSON.stringify(o)}, Go ${JSON.stringify(g)}`];
    });
    console.log(`cron-next ${location}: ${cases.length} cases × 5 fire times in ${(performance.now() - started).toFixed(0)} ms`);
    expect(differ.slice(0, 10), `cases that differ (${differ.length} of ${cases.length})`).toEqual([]);
    expect(go.every((g) => !g.error && !g.panic), 'every spec in the list is valid to Go').toBe(true);
  });

  it('refuses the same specs with robfig’s words', async () => {
    const cases = BAD.map((spec) => ({ spec, from: INSTANTS[0]!, n: 1 }));
    const go = await asynqGo.json<GoResult[]>('cron-next', ['--location', 'UTC'], { stdin: cases });
    expect(cases.filter((_, i) => !go[i]!.error).map((c) => c.spec), 'specs Go accepts').toEqual([]);
    expect(cases.map((c) => `${c.spec} → ${ours(c, 'UTC').error}`)).toEqual(cases.map((c, i) => `${c.spec} → ${go[i]!.error}`));
  });

  it('refuses, with a clear text, the specs robfig panics on', async () => {
    const go = await asynqGo.json<GoResult[]>('cron-next', ['--location', 'UTC'], { stdin: PANICS.map((spec) => ({ spec, from: 0, n: 1 })) });
    expect(go.map((g) => g.panic ?? '')).toEqual(PANICS.map(() => expect.stringContaining('slice bounds out of range')));
    for (const spec of PANICS) expect(() => parseCronSpec(spec)).toThrow(`missing schedule after the time zone: ${spec}`);
  });
});
