/**
 * Our Scheduler beside a real Go asynq.Scheduler (tests/go `schedule`) on one Redis, both with
 * the entries `@every 1s` and `* * * * *`: Go's Inspector must list ours as it lists Go's own —
 * the same spec text, next times on the same whole seconds, the minute entry due at the same
 * minute — and both must enqueue alike: one task a second, and one at the top of the minute.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scheduler } from '@asynqlens/asynq';
import { openTestRedis } from '../../support/test-redis';
import { waitFor } from '../../support/wait-for';
import { asynqBuilds } from '../asynq-builds';
import type { GoDump, GoSchedulerEntry } from '../go-dump';
import { ASYNQ, goHarness, redisArgs, type GoProcess } from '../go-harness';

const DB = 57;
const SPECS = ['@every 1s', '* * * * *'] as const;
const asynqGo = goHarness('worker');
asynqGo.requireGo('scheduler-cron.test.ts');
/** Waiting for a whole minute is done once, against the newest asynq (the Scheduler is the same in all three). */
const NEWEST = ASYNQ.version === asynqBuilds()[0]!.version;

describe.skipIf(asynqGo.noGo)('our Scheduler beside Go’s, through Go’s Inspector', () => {
  let redis: Redis;
  let go: GoProcess;
  let scheduler: Scheduler;
  const ours: Record<string, string> = {};
  let theirs: Record<string, string> = {};

  /** Go's dump once both schedulers' four entries are listed. */
  const dumpBoth = () =>
    waitFor('both schedulers in Go’s dump', async () => {
      const d = await asynqGo.json<GoDump>('dump', redisArgs(DB));
      return d.schedulerEntries.length === 4 ? d : null;
    }, 15_000);
  const entry = (d: GoDump, id: string): GoSchedulerEntry => d.schedulerEntries.find((e) => e.id === id)!;

  beforeAll(async () => {
    redis = await openTestRedis(DB);
    go = await asynqGo.start('schedule', [...redisArgs(DB), ...SPECS.flatMap((s) => ['--spec', s]), '--type', 'cron:go', '--queue', 'go-cron']);
    theirs = JSON.parse(go.stdout().split('\n')[0]!) as Record<string, string>;
    scheduler = new Scheduler(redis, { heartbeatIntervalMs: 1000 });
    for (const spec of SPECS) ours[spec] = scheduler.register(spec, { type: 'cron:ts', payload: null }, { queue: 'ts-cron' });
    scheduler.start();
  }, 60_000);

  afterAll(async () => {
    await scheduler?.shutdown();
    await go?.stop();
    await redis?.quit();
  });

  it('lists our entries with the spec text and options as Go lists its own', async () => {
    const d = await dumpBoth();
    for (const spec of SPECS) {
      const [o, g] = [entry(d, ours[spec]!), entry(d, theirs[spec]!)];
      expect([o.spec, o.options], `our ${spec}`).toEqual([spec, ['Queue("ts-cron")']]);
      expect([g.spec, g.options], `Go's ${spec}`).toEqual([spec, ['Queue("go-cron")']]);
    }
  });

  it('has the minute entry due at the same minute as Go’s, and the second entry on whole seconds', async () => {
    const d = await waitFor('the same next minute', async () => {
      const dump = await dumpBoth();
      const [o, g] = [entry(dump, ours['* * * * *']!), entry(dump, theirs['* * * * *']!)];
      // …and a snapshot taken after the first `@every 1s` fire.
      return o.nextEnqueueAt === g.nextEnqueueAt && entry(dump, ours['@every 1s']!).prevEnqueueAt > 0 ? dump : null;
    }, 15_000);
    const next = entry(d, ours['* * * * *']!).nextEnqueueAt;
    expect(next % 60).toBe(0);
    expect(next - Date.now() / 1000).toBeLessThanOrEqual(62);
    const [o, g] = [entry(d, ours['@every 1s']!), entry(d, theirs['@every 1s']!)];
    // Snapshots a beat apart (asynq v0.24 beats every 5 s whatever it is asked).
    expect(Math.abs(o.nextEnqueueAt - g.nextEnqueueAt)).toBeLessThanOrEqual(6);
    expect(o.nextEnqueueAt - o.prevEnqueueAt).toBe(1);
  });

  it('enqueues once a second on `@every 1s`, as Go does', async () => {
    const d = await waitFor('five events each', async () => {
      const dump = await asynqGo.json<GoDump>('dump', redisArgs(DB));
      const counts = [ours['@every 1s']!, theirs['@every 1s']!].map((id) => dump.schedulerEvents[id]?.length ?? 0);
      return counts.every((n) => n >= 5) ? dump : null;
    }, 20_000);
    for (const [who, id] of [['ours', ours['@every 1s']!], ['Go', theirs['@every 1s']!]] as const) {
      const times = d.schedulerEvents[id]!.map((e) => e.enqueuedAt + e.enqueuedAtNanos / 1e9).sort();
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(gaps.every((g) => g > 0.5 && g < 1.5), `${who}: gaps ${gaps.map((g) => g.toFixed(3)).join(' ')}`).toBe(true);
      // Fired on the whole second; recorded when the enqueue returned, just after it.
      expect(times.every((t) => t % 1 < 0.5), `${who}: ${times.join(' ')}`).toBe(true);
    }
    // The oldest event: Go's dump lists the queues before the histories, so the newest may be missing there.
    const task = d.taskInfo['ts-cron']?.[d.schedulerEvents[ours['@every 1s']!]!.at(-1)!.taskId];
    expect(task?.type).toBe('cron:ts');
  });

  it.runIf(NEWEST)('fires `* * * * *` at the top of the minute with Go, prev set to that minute', async () => {
    const prevs = (dump: GoDump) => [ours['* * * * *']!, theirs['* * * * *']!].map((id) => entry(dump, id).prevEnqueueAt);
    // Up to a minute of waiting, without polling Go's dump all along.
    if (prevs(await dumpBoth()).some((p) => p === 0)) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 1500));
    const d = await waitFor('the minute fired for both', async () => {
      const dump = await dumpBoth();
      const [o, g] = prevs(dump);
      return o! > 0 && o === g ? dump : null;
    }, 15_000);
    const [o, g] = [entry(d, ours['* * * * *']!), entry(d, theirs['* * * * *']!)];
    expect(o.prevEnqueueAt).toBe(g.prevEnqueueAt);
    expect(o.prevEnqueueAt % 60).toBe(0);
    expect(o.nextEnqueueAt).toBe(o.prevEnqueueAt + 60);
    for (const id of [ours['* * * * *']!, theirs['* * * * *']!]) {
      const [event] = d.schedulerEvents[id]!;
      expect(event!.enqueuedAt).toBe(o.prevEnqueueAt);
    }
  }, 90_000);
});
