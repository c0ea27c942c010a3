/**
 * The routing verdict of a (queue, task type): will a server of this fleet handle its tasks?
 * One engine, so every surface (Routing, Failures, the overview, task detail, the enqueue
 * pre-check) gives the same answer. Pure: it reads a FleetEvidence (fleet.ts) and does no I/O.
 *
 * The rules, in order (first that applies):
 *   conflict     handler-not-found failures exist, yet a group declares a route, a server
 *                publishes one, or tasks of the type completed or are being processed
 *                (since: the first failure)
 *   not_handled  handler-not-found failures exist and nothing says it is handled (since: the first failure)
 *   aggregated   tasks of the type wait in groups of the queue: the group aggregator turns them
 *                into the types its group declares it emits
 *   conflict     one group (or publishing server) on the queue routes it and another consuming
 *                the queue does not: that one's servers will fail such tasks (since: null)
 *   handled      declared, published, completed or being processed, and no failure
 *   not_handled  every group and publishing server on the queue lacks a route
 *   unknown      no declaration and no evidence either way (e.g. Go servers with no routing file)
 * Routes follow asynq's ServeMux: the exact type, else the longest registered string prefix.
 */
import { byName } from '../compare';
import { consumes, routeOf, type FleetEvidence, type FleetServer, type NotFoundSpan, type TypeSeen, type WorkerGroup } from './fleet';
import { goQuote } from '../errors';
import { counted, failedCount, listed, ownQueues, serverName, tick, unixToDate, utcTime } from './verdict-words';

export type Verdict = 'handled' | 'not_handled' | 'aggregated' | 'conflict' | 'unknown';

export type EvidenceKind =
  | 'declared_route'
  | 'no_declared_route'
  | 'server_consumes_queue'
  | 'no_server_on_queue'
  | 'seen_processing'
  | 'seen_completed'
  | 'handler_not_found'
  | 'group_aggregation'
  | 'published_routes';

export interface Evidence {
  kind: EvidenceKind;
  detail: string;
}

export interface RoutingVerdict {
  queue: string;
  taskType: string;
  verdict: Verdict;
  since: Date | null;
  summary: string;
  evidence: Evidence[];
  /** For `aggregated`: the types its queue's aggregators are declared to emit. */
  emits?: string[];
}

/** Servers named one by one in the evidence; more are counted. */
const SERVERS_NAMED = 5;

/** The evidence indexed by queue and type, built once per answer. */
export interface FleetIndex {
  ev: FleetEvidence;
  notFound: Map<string, NotFoundSpan>;
  types: Map<string, TypeSeen>;
  serversOn: Map<string, FleetServer[]>;
}

const pairKey = (queue: string, taskType: string) => JSON.stringify([queue, taskType]);

/** Indexes `ev`: O(servers × queues + failures + types). */
export function indexFleet(ev: FleetEvidence): FleetIndex {
  const serversOn = new Map<string, FleetServer[]>();
  for (const s of ev.servers) for (const q of Object.keys(s.queues)) serversOn.set(q, [...(serversOn.get(q) ?? []), s]);
  return {
    ev,
    notFound: new Map(ev.notFound.map((n) => [pairKey(n.queue, n.taskType), n])),
    types: new Map(ev.types.map((t) => [pairKey(t.queue, t.taskType), t])),
    serversOn,
  };
}

interface Declared {
  /** Groups and publishing servers whose mux takes the type, with the pattern. */
  routes: { who: string; pattern: string }[];
  /** Those consuming the queue without a route for it. */
  lacking: string[];
}

function declared(ix: FleetIndex, queue: string, taskType: string, evidence: Evidence[]): Declared {
  const out: Declared = { routes: [], lacking: [] };
  const t = goQuote(taskType);
  for (const g of ix.ev.groups.filter((x: WorkerGroup) => consumes(x, queue))) {
    const p = routeOf(g.patterns, taskType);
    const who = `group ${tick(g.name)}`;
    if (p === null) {
      out.lacking.push(who);
      evidence.push({ kind: 'no_declared_route', detail: `${who} consumes ${tick(queue)} and no pattern of it matches ${t}.` });
    } else {
      out.routes.push({ who, pattern: p });
      evidence.push({ kind: 'declared_route', detail: `${who} routes ${t} to ${goQuote(p)} (${p === taskType ? 'exact' : 'longest prefix'}).` });
    }
  }
  // Each server record on its own: its own queues and its own patterns, never a process's or a
  // host's, so a release and its successor in one process are told apart.
  for (const s of ix.serversOn.get(queue) ?? []) {
    if (!s.patterns) continue;
    const p = routeOf(s.patterns, taskType);
    const who = `server ${serverName(s)}`;
    if (p === null) out.lacking.push(who);
    else out.routes.push({ who, pattern: p });
    evidence.push({
      kind: 'published_routes',
      detail: `${who} consumes ${ownQueues(s)} and publishes ${counted(s.patterns.length, 'pattern', 'patterns')}: ${p === null ? `none matches ${t}` : `${goQuote(p)} takes ${t}`}.`,
    });
  }
  return out;
}

function serverEvidence(servers: readonly FleetServer[], queue: string, evidence: Evidence[]): void {
  if (servers.length === 0) {
    evidence.push({ kind: 'no_server_on_queue', detail: `No live server consumes ${tick(queue)}: its tasks wait until one does.` });
    return;
  }
  for (const s of servers.slice(0, SERVERS_NAMED)) {
    evidence.push({ kind: 'server_consumes_queue', detail: `${serverName(s)} consumes ${tick(queue)} (priority ${s.queues[queue] ?? 0}).` });
  }
  if (servers.length > SERVERS_NAMED) {
    evidence.push({ kind: 'server_consumes_queue', detail: `${servers.length - SERVERS_NAMED} more live servers consume ${tick(queue)}.` });
  }
}

/** The verdict of one (queue, type). O(groups + servers on the queue). */
export function verdictOf(ix: FleetIndex, queue: string, taskType: string): RoutingVerdict {
  const evidence: Evidence[] = [];
  const t = goQuote(taskType);
  const servers = ix.serversOn.get(queue) ?? [];
  const decl = declared(ix, queue, taskType, evidence);
  serverEvidence(servers, queue, evidence);

  const processing = servers.filter((s) => s.inFlight.some((w) => w.queue === queue && w.taskType === taskType));
  for (const s of processing.slice(0, SERVERS_NAMED)) evidence.push({ kind: 'seen_processing', detail: `${serverName(s)} is processing a ${t} task now.` });
  const seen = ix.types.get(pairKey(queue, taskType));
  if (seen && seen.completed > 0) {
    const one = seen.completed === 1;
    evidence.push({ kind: 'seen_completed', detail: `${counted(seen.completed, 'completed', 'completed')} ${t} ${one ? 'task is' : 'tasks are'} retained in ${tick(queue)}: a handler ran ${one ? 'it' : 'them'}.` });
  }
  const nf = ix.notFound.get(pairKey(queue, taskType));
  const failing = nf !== undefined && nf.retry + nf.archived > 0;
  if (failing) {
    const first = unixToDate(nf.first);
    const last = unixToDate(nf.last);
    evidence.push({
      kind: 'handler_not_found',
      detail: `${failedCount(nf)} failed with handler not found for task ${t}${first ? `, first at ${utcTime(first)}` : ''}${last ? `, last at ${utcTime(last)}` : ''}.`,
    });
  }
  const emits = [...new Set(ix.ev.groups.filter((g) => consumes(g, queue)).flatMap((g) => g.emits))].sort(byName);
  if (seen && seen.aggregating > 0) {
    evidence.push({
      kind: 'group_aggregation',
      detail: `${waiting(seen.aggregating, t)} in groups of ${tick(queue)}; ${emits.length > 0 ? `its aggregator is declared to emit ${listed(emits.map(goQuote))}` : 'no group declares what its aggregator emits'}.`,
    });
  }

  const positive = [
    ...decl.routes.map((r) => `declared by ${r.who}`),
    ...(seen && seen.completed > 0 ? [`completed ${seen.completed === 1 ? 'once' : `${seen.completed} times`}`] : []),
    ...(processing.length > 0 ? ['being processed now'] : []),
  ];
  const base = { queue, taskType, evidence };

  if (failing) {
    const since = unixToDate(nf.first);
    const when = since ? `since ${utcTime(since)} ` : '';
    const blame = culprit(decl, servers, nf, queue);
    // No live server on the queue: the one that failed them was there and is gone.
    const failer = servers.length > 0 ? `a server on ${tick(queue)} without this handler has failed` : `a server that consumed ${tick(queue)} without this handler failed`;
    if (positive.length > 0) {
      return { ...base, verdict: 'conflict', since, summary: `${capital(listed(positive))}, but ${when}${failer} ${failedCount(nf)}: ${blame}` };
    }
    return { ...base, verdict: 'not_handled', since, summary: `${when ? `${capital(when.trimEnd())}, ` : ''}${failedCount(nf)} failed with handler not found on ${tick(queue)}, and no group, published route or completed task shows a server handling ${t}.` };
  }
  if (seen && seen.aggregating > 0) {
    const into = emits.length > 0 ? `the group aggregator turns them into ${listed(emits.map(tick))}` : 'a group aggregator on this queue turns them into other tasks (no group declares which)';
    return { ...base, verdict: 'aggregated', since: null, summary: `${capital(waiting(seen.aggregating, t))} in groups of ${tick(queue)}: ${into}.`, emits };
  }
  if (decl.routes.length > 0 && decl.lacking.length > 0) {
    return {
      ...base,
      verdict: 'conflict',
      since: null,
      summary: `${capital(listed(positive))}, but ${listed(decl.lacking)} also ${decl.lacking.length === 1 ? 'consumes' : 'consume'} ${tick(queue)} without a route for it: ${failers(decl.lacking)} will fail such tasks with handler not found.`,
    };
  }
  if (positive.length > 0) {
    const idle = servers.length === 0 ? `, but no live server consumes ${tick(queue)} now: its tasks wait until one does` : '';
    return { ...base, verdict: 'handled', since: null, summary: `${capital(listed(positive))} on ${tick(queue)}${idle}.` };
  }
  if (decl.lacking.length > 0) {
    return { ...base, verdict: 'not_handled', since: null, summary: `No route for ${t} on ${tick(queue)}: ${listed(decl.lacking)} ${decl.lacking.length === 1 ? 'consumes' : 'consume'} it and would fail such tasks with handler not found.` };
  }
  const why = servers.length === 0 ? `no live server consumes ${tick(queue)} and no group declares it` : `no group declares ${tick(queue)} and no ${t} task has completed or failed there yet`;
  return { ...base, verdict: 'unknown', since: null, summary: `Unknown: ${why}.` };
}

/** Who most likely failed them, in plain words. */
function culprit(decl: Declared, servers: readonly FleetServer[], nf: NotFoundSpan, queue: string): string {
  if (decl.lacking.length > 0) return `${listed(decl.lacking)} ${decl.lacking.length === 1 ? 'consumes' : 'consume'} ${tick(queue)} without a route for it.`;
  if (servers.length === 0) return `no live server consumes ${tick(queue)} now, so the server that failed them is gone; re-run them once one with this handler does.`;
  const last = unixToDate(nf.last);
  const starts = servers.map((s) => s.startedAt?.getTime() ?? 0);
  // asynq keeps a failure's time in whole seconds and a server's start to the nanosecond: a
  // server that started within the second of the last failure may have failed it, so only a
  // start in a later second counts as after it.
  if (last && servers.length > 0 && starts.every((s) => s >= last.getTime() + 1000)) {
    return `every live server on ${tick(queue)} started after the last failure, so the server that failed them is gone; re-run them.`;
  }
  const older = servers.filter((s) => s.patterns === null).sort((a, b) => (a.startedAt?.getTime() ?? 0) - (b.startedAt?.getTime() ?? 0));
  // Oldest first: a release still running beside its successor started before it.
  const named = older.length > 0 ? `; the servers on ${tick(queue)} that publish no routes, oldest first: ${listed(older.slice(0, 3).map(serverName))}` : '';
  return `a server from an older release may still run${named}.`;
}

/** Who fails the tasks: a server itself, or a group's servers. */
function failers(lacking: readonly string[]): string {
  const one = lacking.length === 1;
  if (lacking.every((w) => w.startsWith('server '))) return one ? 'it' : 'they';
  return one ? 'its servers' : 'their servers';
}

/** `3 "x" tasks wait` / `1 "x" task waits`. */
const waiting = (n: number, quotedType: string): string => `${n} ${quotedType} ${n === 1 ? 'task waits' : 'tasks wait'}`;

const capital = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** The pairs the evidence mentions, on `queue` when given: failures, types seen, tasks in flight. */
function pairsOf(ix: FleetIndex, queue: string | undefined): [string, string][] {
  const keys = new Set<string>();
  for (const n of ix.ev.notFound) keys.add(pairKey(n.queue, n.taskType));
  for (const t of ix.ev.types) keys.add(pairKey(t.queue, t.taskType));
  for (const s of ix.ev.servers) for (const w of s.inFlight) keys.add(pairKey(w.queue, w.taskType));
  return [...keys]
    .map((k) => JSON.parse(k) as [string, string])
    .filter(([q]) => queue === undefined || q === queue)
    .sort((a, b) => byName(a[0], b[0]) || byName(a[1], b[1]));
}

/**
 * Every (queue, type) the evidence mentions, on `opts.queue` when given, or just
 * (`opts.queue`, `opts.taskType`) when both are. Sorted by queue, then type. Takes the evidence,
 * or its index when the caller keeps one (indexing is O(evidence); one pair is then O(groups +
 * servers on the queue)).
 */
export function routingVerdicts(ev: FleetEvidence | FleetIndex, opts: { queue?: string | undefined; taskType?: string | undefined } = {}): RoutingVerdict[] {
  const ix = 'serversOn' in ev ? ev : indexFleet(ev);
  if (opts.queue !== undefined && opts.taskType !== undefined) return [verdictOf(ix, opts.queue, opts.taskType)];
  const pairs = pairsOf(ix, opts.queue).filter(([, t]) => opts.taskType === undefined || t === opts.taskType);
  return pairs.map(([q, t]) => verdictOf(ix, q, t));
}
