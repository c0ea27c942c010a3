import { route } from '@/lib/server/http/route';
import { METRICS_CONTENT_TYPE, redisDownAsMetric, scrapeMetrics } from '@/lib/server/services/metrics';

export const dynamic = 'force-dynamic';

/** Prometheus text format; see docs/api.md "Metrics and health". Redis down is a metric, not a 503. */
export const GET = route({ text: METRICS_CONTENT_TYPE, noStore: true, recover: redisDownAsMetric }, () => scrapeMetrics());
