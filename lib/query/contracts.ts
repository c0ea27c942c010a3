/**
 * The response schemas of lib/contract, each behind a dynamic import.
 *
 * Why not import them directly: lib/contract is built on zod's classic API, about 33 KB of
 * gzipped JavaScript, which alone would take a fifth of the overview's 150 KB budget (React and
 * Next already take 130). So the browser bundle holds only the *types* (`import type`), and
 * the schemas load only where they run: in development, where every response is parsed (see
 * fetcher.ts), and in the e2e suite, which parses every API response Chromium receives against
 * these same schemas (tests/e2e/support/contract-check.ts). Server and client ship from one
 * build, so in production the shapes cannot drift apart between the two.
 */
import type { z } from 'zod';

export type SchemaLoader<S extends z.ZodType = z.ZodType> = () => Promise<S>;

const common = () => import('@/lib/contract/common');
const queues = () => import('@/lib/contract/queues');
const tasks = () => import('@/lib/contract/tasks');
const servers = () => import('@/lib/contract/servers');
const mutations = () => import('@/lib/contract/mutations');
const search = () => import('@/lib/contract/search');
const diagnostics = () => import('@/lib/contract/diagnostics');
const triage = () => import('@/lib/contract/triage');
const archiveForecast = () => import('@/lib/contract/archive-forecast');
const routingVerdicts = () => import('@/lib/contract/routing-verdicts');

export const contracts = {
  health: () => servers().then((m) => m.healthSchema),
  queueList: () => queues().then((m) => m.queueListSchema),
  queueStats: () => queues().then((m) => m.queueStatsSchema),
  history: () => queues().then((m) => m.historySchema),
  groups: () => queues().then((m) => m.groupListSchema),
  archiveForecast: () => archiveForecast().then((m) => m.archiveForecastSchema),
  taskList: () => tasks().then((m) => m.taskListSchema),
  task: () => tasks().then((m) => m.taskSchema),
  servers: () => servers().then((m) => m.serverListSchema),
  schedulers: () => servers().then((m) => m.schedulerListSchema),
  schedulerEvents: () => servers().then((m) => m.schedulerEventsSchema),
  redis: () => servers().then((m) => m.redisInfoSchema),
  bulkResult: () => mutations().then((m) => m.bulkResultSchema),
  enqueueCheck: () => mutations().then((m) => m.enqueueCheckSchema),
  batchEnqueueResult: () => mutations().then((m) => m.batchEnqueueResultSchema),
  searchPage: () => search().then((m) => m.searchPageSchema),
  searchPreview: () => search().then((m) => m.searchPreviewSchema),
  searchActResult: () => search().then((m) => m.searchActResultSchema),
  searchActOutcome: () => search().then((m) => m.searchActOutcomeSchema),
  searchActProgress: () => search().then((m) => m.searchActProgressSchema),
  lockList: () => diagnostics().then((m) => m.lockListSchema),
  duplicatesReport: () => diagnostics().then((m) => m.duplicatesReportSchema),
  resolveDuplicatesResult: () => diagnostics().then((m) => m.resolveDuplicatesResult),
  failures: () => triage().then((m) => m.failuresSchema),
  handlerNotFound: () => triage().then((m) => m.handlerNotFoundSchema),
  taskTypes: () => triage().then((m) => m.taskTypesSchema),
  routingExplain: () => triage().then((m) => m.routingExplainSchema),
  routingPatterns: () => triage().then((m) => m.routingPatternsSchema),
  routingVerdicts: () => routingVerdicts().then((m) => m.routingVerdictsSchema),
  rerunResult: () => triage().then((m) => m.rerunResultSchema),
  rerunProgress: () => triage().then((m) => m.rerunProgressSchema),
  /** One NDJSON line of a streamed answer with these progress and result schemas. */
  streamLine: <P extends z.ZodType, R extends z.ZodType>(progress: SchemaLoader<P>, result: SchemaLoader<R>) => () =>
    Promise.all([common(), progress(), result()]).then(([m, p, r]) => m.streamLineSchema(p, r)),
};
