import 'server-only';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The console's own health, as Prometheus metrics (prom-client): the Node process (CPU, memory,
 * event-loop lag, GC, handles; collectDefaultMetrics), request latency per API route, Redis call
 * latency and errors, and the age of the newest queue stats. /metrics appends this registry's
 * text to the asynq exposition (lib/server/services/metrics.ts), which stays hand-written.
 *
 * Every name starts with asynqlens_. Labels are bounded by construction: a route is its pattern
 * (`/api/queues/[qname]`), never the path, and a Redis command is its name, never its keys.
 *
 * One registry per process, on globalThis: route handlers and server-rendered pages are separate
 * bundles in one process (each with its own module instances), and a hot reload in development
 * loads the module again; a second registry would split the counts and start a second set of
 * default collectors.
 */
export interface Telemetry {
  registry: Registry;
  httpDuration: Histogram<'route' | 'method' | 'status'>;
  redisDuration: Histogram<'command'>;
  redisErrors: Counter<'command' | 'kind'>;
  redisConnectionErrors: Counter;
  /** performance.now() of the last successful queue-stats read (process start until one lands). */
  queuesReadAt: number;
}

/** Request latency buckets: the API answers most reads in about 1 ms, scans and bulk streams take seconds. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Redis call buckets: a command takes 0.1-1 ms on a nearby Redis; the stats script about 1 ms by design. */
const REDIS_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

function create(): Telemetry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'asynqlens_' });
  const registers = [registry];
  const t: Telemetry = {
    registry,
    httpDuration: new Histogram({
      name: 'asynqlens_http_request_duration_seconds',
      help: 'API request time until the answer starts (a stream counts until its headers), by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    redisDuration: new Histogram({
      name: 'asynqlens_redis_command_duration_seconds',
      help: "Time from sending a Redis command to its reply, by command name, as the console's client sees it (pipelined commands included).",
      labelNames: ['command'],
      buckets: REDIS_BUCKETS,
      registers,
    }),
    redisErrors: new Counter({
      name: 'asynqlens_redis_command_errors_total',
      help: 'Redis commands that failed, by command name and kind: refused, timeout, not_sent, reply_lost, lost (lib/server/redis/failure.ts), or reply (any other error reply, NOSCRIPT before a script is loaded included).',
      labelNames: ['command', 'kind'],
      registers,
    }),
    redisConnectionErrors: new Counter({
      name: 'asynqlens_redis_connection_errors_total',
      help: "Errors reported on the console's Redis connection (refused, reset, authentication, TLS).",
      registers,
    }),
    queuesReadAt: performance.now(),
  };
  new Gauge({
    name: 'asynqlens_snapshot_age_seconds',
    help: "Seconds since the console last read every queue's stats (what its pages, the live snapshot and /metrics show), or since it started if it never has.",
    registers,
    collect() {
      this.set(Math.round(performance.now() - t.queuesReadAt) / 1000);
    },
  });
  return t;
}

const g = globalThis as unknown as { asynqlensTelemetry?: Telemetry };

export function telemetry(): Telemetry {
  return (g.asynqlensTelemetry ??= create());
}

/**
 * The registry's exposition text (format 0.0.4), collected now, written as the asynq part is:
 * - without the empty line prom-client puts between families (the format allows it; a label
 *   value's line feed is escaped, so a raw empty line is only ever a separator);
 * - NaN spelled `NaN`: prom-client 15 writes `Nan` (an event-loop lag before its first sample),
 *   which Go's ParseFloat reads too, but stricter readers do not.
 */
export async function telemetryText(): Promise<string> {
  return (await telemetry().registry.metrics()).replace(/\n\n+/g, '\n').replace(/ Nan$/gm, ' NaN');
}

/** Records a successful read of every queue's stats: the snapshot is fresh. */
export function markQueuesRead(): void {
  telemetry().queuesReadAt = performance.now();
}
