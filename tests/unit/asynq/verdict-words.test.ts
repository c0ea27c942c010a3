/**
 * The verdict's sentences on the fleet the demo runs: one process with two task servers on
 * `low` (the current release, which routes `metrics:rollup`, and an older one that does not).
 * Each server record is named and described by its own queues and patterns, so the summary
 * never names one server as both declaring the route and lacking it.
 */
import { describe, expect, it } from 'vitest';
import { routingVerdicts, type FleetEvidence, type FleetServer } from '@/lib/asynq';

const startedAt = new Date('2026-01-01T10:00:05Z');
const current = ['metrics:rollup', 'email:', 'video:transcode'];
const older = current.filter((p) => p !== 'metrics:rollup');
const server = (serverId: string, queues: Record<string, number>, patterns: string[] | null, offsetS = 0): FleetServer => ({
  host: 'shop-1',
  pid: 4242,
  serverId,
  queues,
  startedAt: new Date(startedAt.getTime() + offsetS * 1000),
  patterns,
  inFlight: [],
});
const failures = { queue: 'low', taskType: 'metrics:rollup', retry: 1, archived: 3, first: Date.parse('2026-01-01T10:01:40Z') / 1000, last: Date.parse('2026-01-01T10:05:00Z') / 1000 };

function demoFleet(servers: FleetServer[]): FleetEvidence {
  return {
    servers,
    notFound: [failures],
    types: [{ queue: 'low', taskType: 'metrics:rollup', completed: 1, aggregating: 0, total: 5 }],
    groups: [{ name: 'shop', queues: ['critical', 'default', 'low'], patterns: current, emits: [] }],
  };
}

describe('routing verdict words', () => {
  it('names the server that declares the route and the one that lacks it apart, though they share host and pid', () => {
    const now = server('aaaa1111-0000-4000-8000-000000000001', { critical: 6, default: 3, low: 1 }, current);
    const old = server('bbbb2222-0000-4000-8000-000000000002', { low: 1 }, older, 2);
    const [v] = routingVerdicts(demoFleet([now, old]), { queue: 'low', taskType: 'metrics:rollup' });
    expect(v!.verdict).toBe('conflict');
    const [declaredPart, blamePart] = v!.summary.split(': server ');
    expect(declaredPart).toContain('declared by server `shop-1` pid 4242 (ID `aaaa1111`, started 2026-01-01 10:00:05 UTC)');
    expect(declaredPart).not.toContain('bbbb2222');
    expect(blamePart).toBe('`shop-1` pid 4242 (ID `bbbb2222`, started 2026-01-01 10:00:07 UTC) consumes `low` without a route for it.');
    // Each record's own queues and patterns, not the process's.
    const published = v!.evidence.filter((e) => e.kind === 'published_routes').map((e) => e.detail);
    expect(published).toEqual([
      'server `shop-1` pid 4242 (ID `aaaa1111`, started 2026-01-01 10:00:05 UTC) consumes `critical`, `default` and `low` and publishes 3 patterns: "metrics:rollup" takes "metrics:rollup".',
      'server `shop-1` pid 4242 (ID `bbbb2222`, started 2026-01-01 10:00:07 UTC) consumes `low` only and publishes 2 patterns: none matches "metrics:rollup".',
    ]);
  });

  it('before any failure, a split between two servers of one process names the one without the route, which itself will fail such tasks', () => {
    const now = server('aaaa1111', { critical: 6, low: 1 }, current);
    const old = server('bbbb2222', { low: 1 }, older, 2);
    const [v] = routingVerdicts({ ...demoFleet([now, old]), notFound: [] }, { queue: 'low', taskType: 'metrics:rollup' });
    expect(v!.verdict).toBe('conflict');
    expect(v!.summary).toBe(
      'Declared by group `shop`, declared by server `shop-1` pid 4242 (ID `aaaa1111`, started 2026-01-01 10:00:05 UTC) and completed once, but server `shop-1` pid 4242 (ID `bbbb2222`, started 2026-01-01 10:00:07 UTC) also consumes `low` without a route for it: it will fail such tasks with handler not found.',
    );
  });

  it('says one completed task in the singular, and times to the second in UTC as the console writes them', () => {
    const [v] = routingVerdicts(demoFleet([server('aaaa1111', { low: 1 }, current)]), { queue: 'low', taskType: 'metrics:rollup' });
    expect(v!.evidence.find((e) => e.kind === 'seen_completed')?.detail).toBe('1 completed "metrics:rollup" task is retained in `low`: a handler ran it.');
    expect(v!.summary).toMatch(/^Declared by group `shop`, declared by server .* and completed once, but since 2026-01-01 10:01:40 UTC a server on `low`/);
    expect(v!.evidence.find((e) => e.kind === 'handler_not_found')?.detail).toContain('first at 2026-01-01 10:01:40 UTC, last at 2026-01-01 10:05:00 UTC');
  });

  it('names the servers that publish no routes (Go servers), oldest first, and writes since-clauses with their comma', () => {
    const newer = server('cccc3333', { low: 1 }, null, 60);
    const older = server('dddd4444', { low: 1 }, null);
    const [v] = routingVerdicts(demoFleet([newer, older]), { queue: 'low', taskType: 'metrics:rollup' });
    expect(v!.summary).toMatch(
      /: a server from an older release may still run; the servers on `low` that publish no routes, oldest first: `shop-1` pid 4242 \(ID `dddd4444`, started 2026-01-01 10:00:05 UTC\) and `shop-1` pid 4242 \(ID `cccc3333`, started 2026-01-01 10:01:05 UTC\)\.$/,
    );
    const [undeclared] = routingVerdicts({ ...demoFleet([older]), groups: [], types: [] }, { queue: 'low', taskType: 'metrics:rollup' });
    expect(undeclared!.summary).toMatch(/^Since 2026-01-01 10:01:40 UTC, 4 tasks \(3 archived, 1 in retry\) failed with handler not found on `low`/);
  });

  it('never puts "a server on Q" in a summary whose evidence says no live server consumes Q', () => {
    const [failing] = routingVerdicts(demoFleet([]), { queue: 'low', taskType: 'metrics:rollup' });
    expect(failing!.evidence.map((e) => e.kind)).toContain('no_server_on_queue');
    expect(failing!.summary).not.toMatch(/a server on `low`/);
    expect(failing!.summary).toContain('a server that consumed `low` without this handler failed 4 tasks');
    expect(failing!.summary).toMatch(/no live server consumes `low` now, so the server that failed them is gone/);
    const [idle] = routingVerdicts({ ...demoFleet([]), notFound: [] }, { queue: 'default', taskType: 'email:welcome' });
    expect(idle!.verdict).toBe('handled');
    expect(idle!.summary).toBe('Declared by group `shop` on `default`, but no live server consumes `default` now: its tasks wait until one does.');
  });

  it('counts a server that started within the second of the last failure as one that may have failed it (asynq keeps failure times in whole seconds)', () => {
    // The last failure is 10:05:00 (seconds); a Go server that started at 10:05:00.700 may have failed it at 10:05:00.900.
    const sameSecond = server('eeee5555', { low: 1 }, null, 295.7);
    const [v] = routingVerdicts(demoFleet([sameSecond]), { queue: 'low', taskType: 'metrics:rollup' });
    expect(v!.summary).toMatch(/a server from an older release may still run/);
    const nextSecond = server('ffff6666', { low: 1 }, null, 296);
    const [gone] = routingVerdicts(demoFleet([nextSecond]), { queue: 'low', taskType: 'metrics:rollup' });
    expect(gone!.summary).toMatch(/every live server on `low` started after the last failure/);
  });
});
