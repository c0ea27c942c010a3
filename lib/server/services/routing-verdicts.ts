import 'server-only';
import { indexFleet, routingVerdicts, type FleetEvidence, type FleetIndex, type FleetServer, type NotFoundSpan, type RoutingVerdict, type TypeSeen } from '@asynqlens/asynq';
import type { RoutingProblemDto, RoutingVerdictDto, RoutingVerdictsDto, RoutingVerdictsQuery, WorkerGroupDto } from '@/lib/contract/routing-verdicts';
import { readRoutingGroups } from '../config/routing-file';
import { getInspector } from '../redis/client';
import { shared } from '../cache/snapshot';
import { iso } from '../dto/time';
import { readRedisEvidence } from './routing-evidence';

const toDto = (v: RoutingVerdict): RoutingVerdictDto => ({
  queue: v.queue,
  taskType: v.taskType,
  verdict: v.verdict,
  since: iso(v.since),
  summary: v.summary,
  evidence: v.evidence,
  ...(v.emits ? { emits: v.emits } : {}),
});

/**
 * The evidence's index, kept while its parts are the same objects (the kept scan results, the
 * shared server snapshot, the unchanged routing file): a one-pair answer (task detail, the
 * enqueue pre-check) then costs microseconds, however many pairs the fleet has.
 */
let lastIndex: { parts: unknown[]; ix: FleetIndex; all?: RoutingVerdictDto[] } | null = null;

/** Every verdict of the kept index, computed once per index (about 40 µs a pair). */
function allVerdicts(ix: FleetIndex): RoutingVerdictDto[] {
  if (lastIndex?.ix !== ix) return routingVerdicts(ix).map(toDto);
  return (lastIndex.all ??= routingVerdicts(ix).map(toDto));
}
function indexOf(...parts: Parameters<typeof fleetOf>): FleetIndex {
  if (lastIndex && lastIndex.parts.every((p, i) => p === parts[i])) return lastIndex.ix;
  const ix = indexFleet(fleetOf(...parts));
  lastIndex = { parts, ix };
  return ix;
}
const fleetOf = (servers: FleetServer[], notFound: NotFoundSpan[], types: TypeSeen[], groups: WorkerGroupDto[]): FleetEvidence => ({ servers, notFound, types, groups });

/**
 * What the routing file says that cannot be true of this fleet: a group naming a queue Redis
 * does not have, a group no live server consumes for (an unknown group), patterns of a group
 * that consumes no existing queue (they can never match a task). Under asynq's ServeMux every
 * accepted pattern wins at least for the type equal to it, so within one group a pattern is
 * only ever shadowed by its own repeat, which the file check reports as duplicate_pattern.
 */
function fleetProblems(file: string, groups: readonly WorkerGroupDto[], queues: ReadonlySet<string>, servers: readonly FleetServer[]): RoutingProblemDto[] {
  const out: RoutingProblemDto[] = [];
  const consumed = new Set(servers.flatMap((s) => Object.keys(s.queues)));
  groups.forEach((g) => {
    const field = `groups.${g.name}`;
    const base = { file, line: null, group: g.name, field };
    if (g.queues === null) return;
    const missing = g.queues.filter((q) => !queues.has(q));
    for (const q of missing) {
      out.push({ ...base, rule: 'unknown_queue', pattern: null, message: `Group \`${g.name}\` consumes \`${q}\`, a queue Redis does not have (no task was ever enqueued to it).` });
    }
    const live = g.queues.filter((q) => queues.has(q));
    if (live.length === 0) {
      for (const p of g.patterns) {
        out.push({ ...base, rule: 'never_matches', pattern: p, message: `Pattern \`${p}\` of group \`${g.name}\` can never match a task: the group consumes no existing queue.` });
      }
    }
    if (g.queues.length > 0 && !g.queues.some((q) => consumed.has(q))) {
      out.push({ ...base, rule: 'unknown_group', pattern: null, message: `No live server consumes any queue of group \`${g.name}\` (${g.queues.map((q) => `\`${q}\``).join(', ')}): the group is not known to run.` });
    }
  });
  return out;
}

/**
 * The routing verdicts of the fleet (verdict.ts has the rules), from Redis's evidence and the
 * routing file's groups. Cost per request: the servers (shared snapshot, two round trips),
 * SSCAN of the queue names (shared snapshot), a read of the routing file; the scans behind the
 * evidence are shared and kept (routing-evidence.ts), never started per request. The engine
 * itself is O(pairs × (groups + servers)) in memory.
 */
export async function getRoutingVerdicts(q: RoutingVerdictsQuery): Promise<RoutingVerdictsDto> {
  const [file, ev, queueNames] = await Promise.all([
    readRoutingGroups(),
    readRedisEvidence(q.wait),
    shared('routing:queue-names', () => getInspector().queueNames()),
  ]);
  const ix = indexOf(ev.servers, ev.notFound, ev.types, file.groups);
  const verdicts = q.type !== undefined ? routingVerdicts(ix, { queue: q.queue, taskType: q.type }).map(toDto) : allVerdicts(ix).filter((v) => q.queue === undefined || v.queue === q.queue);
  const problems = file.source ? [...file.problems, ...fleetProblems(file.source, file.groups, new Set(queueNames), ev.servers)] : [];
  return {
    verdicts,
    complete: ev.complete,
    evidenceAt: iso(ev.readAt),
    routingFile: file.source,
    groups: file.groups,
    problems,
  };
}
