import 'server-only';
import type { ApiError } from '@/lib/contract/error-envelope';
import { EXPOSITION_CONTENT_TYPE, expositionChunks, renderExposition, type MetricFamily } from '@asynqlens/asynq/metrics/exposition';
import { queueFamilies } from '@asynqlens/asynq/metrics/queue-families';
import { env } from '../config/env';
import { cachedView } from '../cache/views';
import { collectText, TextChunks } from '../http/text-chunks';
import { telemetryText } from '../telemetry/registry';
import { APP_VERSION } from './health';
import { listQueues } from './queues';

/** Prometheus' text format, version 0.0.4. */
export const METRICS_CONTENT_TYPE = EXPOSITION_CONTENT_TYPE;

/**
 * The exposition, built once per ASYNQLENS_SNAPSHOT_MS and the same bytes sent to every scraper
 * in that interval (one entry: memory bounded by one exposition, 3.4 MB at 5,000 queues, 17 MB
 * at 25,000). Cleared by a console mutation like every shared view.
 */
const expositions = cachedView<TextChunks>({ name: 'metrics', ttlMs: () => env().ASYNQLENS_SNAPSHOT_MS, changedByMutations: true, maxEntries: 1 });

/**
 * One Prometheus scrape: the asynq exposition (shared, below) followed by the console's own
 * metrics (lib/server/telemetry: process, requests, Redis calls), which are collected for each
 * scrape. The two never share a family name: asynq's are asynq_* and the exposition's own
 * asynqlens_redis_up, _scrape_duration_seconds, _build_info and _queue_*; prom-client's are
 * asynqlens_process_*, _nodejs_*, _http_*, _redis_command_*, _redis_connection_* and _snapshot_*.
 */
export async function scrapeMetrics(): Promise<TextChunks> {
  const [asynq, own] = await Promise.all([asynqExposition(), telemetryText()]);
  return appended(asynq, own);
}

function appended(body: TextChunks, text: string): TextChunks {
  const tail = Buffer.from(text, 'utf8');
  return new TextChunks([...body.chunks, tail], body.bytes + tail.length);
}

/**
 * The asynq exposition, as text. Its only Redis read is the queue
 * list every dashboard shares (listQueues: SSCAN + the stats script in calls of about 1 ms of
 * Redis time, 2 round trips up to 40-65 queues), so its cost does not grow with tasks, and a
 * scrape that lands while a dashboard's snapshot is fresh reads nothing at all. The text is
 * written once per interval whatever the number of scrapers, in chunks (17 MB at 25,000 queues
 * is never one string); asynqlens_scrape_duration_seconds is that build's read time.
 * Throws what the read throws.
 */
function asynqExposition(): Promise<TextChunks> {
  return expositions('exposition', async () => {
    const started = performance.now();
    const { queues } = await listQueues();
    return collectText(expositionChunks([...queueFamilies(queues), ...consoleFamilies(true, started)]));
  });
}

/**
 * The scrape's answer instead of an error when Redis is down or stalled — whether the read
 * failed or the route refused to send it: `asynqlens_redis_up 0` and no asynq_* series (a 200).
 * Why not a 503: Prometheus stores nothing from a non-2xx scrape, so the 0 would never reach
 * an alert; and `up == 0` must keep meaning "the console is down", not "Redis is". Every other
 * error (authentication, a reply the core cannot read) stays the API's JSON error (undefined
 * here), and the scrape fails.
 */
export async function redisDownAsMetric(error: ApiError, startedMs: number): Promise<string | undefined> {
  if (error.status !== 503 || error.code !== 'redis_unavailable') return undefined;
  return renderExposition(consoleFamilies(false, startedMs)) + (await telemetryText());
}

function consoleFamilies(redisUp: boolean, startedMs: number): MetricFamily[] {
  const seconds = (performance.now() - startedMs) / 1000;
  return [
    {
      name: 'asynqlens_redis_up',
      help: 'Whether this scrape could read Redis (1) or not (0).',
      type: 'gauge',
      samples: [{ labels: [], value: redisUp ? 1 : 0 }],
    },
    {
      name: 'asynqlens_scrape_duration_seconds',
      help: 'Seconds this scrape took to read Redis and build the metrics.',
      type: 'gauge',
      samples: [{ labels: [], value: Math.round(seconds * 1e6) / 1e6 }],
    },
    {
      name: 'asynqlens_build_info',
      help: 'The running asynqlens version; always 1.',
      type: 'gauge',
      samples: [{ labels: [['version', APP_VERSION]], value: 1 }],
    },
  ];
}
