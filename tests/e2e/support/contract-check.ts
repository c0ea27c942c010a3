/**
 * Parses every API response the browser receives with the contract's zod schemas. The
 * production bundle does not (zod would cost the overview a fifth of its JavaScript budget, see
 * lib/query/contracts.ts), so this is where a drift between routes and UI types is caught.
 */
import type { Page, Response } from 'playwright-core';
import type { z } from 'zod';
import { archiveForecastSchema } from '../../../lib/contract/archive-forecast';
import { errorBodySchema } from '../../../lib/contract/common';
import { duplicatesReportSchema, lockListSchema, resolveDuplicatesResult } from '../../../lib/contract/diagnostics';
import { batchEnqueueResultSchema, bulkResultSchema, enqueueCheckSchema } from '../../../lib/contract/mutations';
import { liveSnapshotSchema } from '../../../lib/contract/live-snapshot';
import { groupListSchema, historySchema, queueListSchema, queueStatsSchema } from '../../../lib/contract/queues';
import { searchActResultSchema, searchPageSchema, searchPreviewSchema } from '../../../lib/contract/search';
import { failuresSchema, handlerNotFoundSchema, notFoundCountSchema, rerunResultSchema, routingExplainSchema, routingPatternsSchema, taskTypesSchema } from '../../../lib/contract/triage';
import { routingVerdictsSchema } from '../../../lib/contract/routing-verdicts';
import { healthSchema, redisInfoSchema, schedulerEventsSchema, schedulerListSchema, serverListSchema } from '../../../lib/contract/servers';
import { taskListSchema, taskSchema } from '../../../lib/contract/tasks';

type Rule = [method: string, pattern: RegExp, schema: z.ZodType];

const SEG = '[^/]+';
const RULES: Rule[] = [
  ['GET', /^\/api\/health$/, healthSchema],
  ['GET', /^\/api\/queues$/, queueListSchema],
  ['GET', /^\/api\/snapshot$/, liveSnapshotSchema],
  ['GET', new RegExp(`^/api/queues/${SEG}$`), queueStatsSchema],
  ['GET', new RegExp(`^/api/queues/${SEG}/history$`), historySchema],
  ['GET', new RegExp(`^/api/queues/${SEG}/groups$`), groupListSchema],
  ['GET', new RegExp(`^/api/queues/${SEG}/archive-forecast$`), archiveForecastSchema],
  ['GET', new RegExp(`^/api/queues/${SEG}/tasks$`), taskListSchema],
  ['GET', new RegExp(`^/api/queues/${SEG}/tasks/${SEG}$`), taskSchema],
  ['POST', new RegExp(`^/api/queues/${SEG}/tasks/${SEG}/(run|archive|reschedule)$`), taskSchema],
  ['POST', new RegExp(`^/api/queues/${SEG}/(pause|resume)$`), queueStatsSchema],
  ['POST', new RegExp(`^/api/queues/${SEG}/bulk$`), bulkResultSchema],
  ['GET', /^\/api\/servers$/, serverListSchema],
  ['GET', /^\/api\/schedulers$/, schedulerListSchema],
  ['GET', new RegExp(`^/api/schedulers/${SEG}/events$`), schedulerEventsSchema],
  ['GET', /^\/api\/redis$/, redisInfoSchema],
  ['GET', /^\/api\/tasks\/search$/, searchPageSchema],
  ['POST', /^\/api\/tasks\/search\/act$/, searchPreviewSchema.or(searchActResultSchema)],
  ['POST', new RegExp(`^/api/queues/${SEG}/tasks$`), taskSchema],
  ['PATCH', new RegExp(`^/api/queues/${SEG}/tasks/${SEG}$`), taskSchema],
  ['POST', new RegExp(`^/api/queues/${SEG}/enqueue-check$`), enqueueCheckSchema],
  ['POST', new RegExp(`^/api/queues/${SEG}/enqueue-replacing-archived$`), taskSchema],
  ['POST', /^\/api\/enqueue-batch$/, batchEnqueueResultSchema],
  ['GET', /^\/api\/task-types$/, taskTypesSchema],
  ['GET', /^\/api\/routing\/patterns$/, routingPatternsSchema],
  ['POST', /^\/api\/routing\/explain$/, routingExplainSchema],
  ['GET', /^\/api\/routing\/verdicts$/, routingVerdictsSchema],
  ['GET', /^\/api\/failures$/, failuresSchema],
  ['GET', /^\/api\/handler-not-found$/, handlerNotFoundSchema],
  ['POST', /^\/api\/handler-not-found\/rerun$/, rerunResultSchema],
  ['GET', /^\/api\/handler-not-found\/count$/, notFoundCountSchema],
  ['GET', new RegExp(`^/api/queues/${SEG}/locks$`), lockListSchema],
  ['GET', /^\/api\/locks$/, lockListSchema],
  ['GET', new RegExp(`^/api/queues/${SEG}/duplicates$`), duplicatesReportSchema],
  ['POST', new RegExp(`^/api/queues/${SEG}/duplicates/resolve$`), resolveDuplicatesResult],
];

async function check(res: Response): Promise<string | null> {
  const url = new URL(res.url());
  if (!url.pathname.startsWith('/api/') || res.status() === 204) return null;
  if (!(res.headers()['content-type'] ?? '').includes('application/json')) return null;
  const method = res.request().method();
  const body: unknown = await res.json().catch(() => undefined);
  if (body === undefined) return null;
  const schema = res.ok() ? RULES.find(([m, p]) => m === method && p.test(url.pathname))?.[2] : errorBodySchema;
  if (!schema) return `${method} ${url.pathname}: no contract rule for this response`;
  const parsed = schema.safeParse(body);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return `${method} ${url.pathname} (${res.status()}): ${issue?.path.join('.')} ${issue?.message}`;
}

/** Starts checking `page`'s API responses; violations are pushed to `out`. */
export function watchContract(page: Page, out: string[]): void {
  page.on('response', (res) => {
    void check(res).then(
      (problem) => problem && out.push(problem),
      () => {},
    );
  });
}
