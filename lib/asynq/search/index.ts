/**
 * Task search across queues and states: filters, a resumable bounded scan, and bulk actions
 * on what it finds.
 */
export type { SearchFilter, JsonFieldCondition } from './filter';
export { filterFingerprint } from './filter';
export {
  searchTasks,
  chosenStates,
  DEFAULT_SCAN_BUDGET,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type SearchOptions,
  type SearchPage,
} from './search-tasks';
export { actOnMatches, MAX_LISTED_FAILURES, type ActOptions, type ActProgress, type ActResult, type ActFailure } from './act';
export { MAX_SCAN_BATCH } from './scan';
export { withSearchQuery, parseSearchQuery, MAX_QUERY_LENGTH, MAX_QUERY_WORDS } from './query';
