import { route } from '@/lib/server/http/route';
import { redisDownAsMetric, scrapeMetrics } from '@/lib/server/services/metrics';

export const dynamic = 'force-dynamic';

/** Prometheus text format; see docs/api.md "Metrics and health". */
export const GET = redisDownAsMetric(route({}, () => scrapeMetrics()));
