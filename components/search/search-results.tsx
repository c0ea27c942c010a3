'use client';

import { EmptyState, ErrorState } from '@/components/common/states';
import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import { SkeletonRows } from '@/components/ui/skeleton';
import type { QueryPairs } from '@/lib/paths';
import { useReadOnly } from '@/lib/query/health';
import { filterKey } from '@/lib/query/search';
import { queryErrorAt } from './query-box';
import { SearchActions } from './search-actions';
import { SearchProgress } from './search-progress';
import { SearchResultsTable } from './search-results-table';
import { useSearchRun } from './use-search-run';

/** One search: its progress, acting on its matches, the matches, and more of them on demand. */
export function SearchResults({ filter }: { filter: QueryPairs }) {
  const run = useSearchRun(filter);
  const readOnly = useReadOnly();
  const { query, tasks } = run;
  if (query.isError && !query.data && queryErrorAt(query.error)) {
    return <EmptyState title="The query cannot be searched">The search box above marks the word to fix.</EmptyState>;
  }
  if (query.isError && !query.data) {
    return <ErrorState error={query.error} title="The search failed" onRetry={run.restart} />;
  }
  return (
    <>
      <SearchProgress run={run} />
      {!readOnly && <SearchActions filter={filter} />}
      {tasks.length > 0 ? (
        <SearchResultsTable tasks={tasks} fetchedAt={query.dataUpdatedAt} resetKey={filterKey(filter)} />
      ) : !query.data && query.isFetching ? (
        <SkeletonRows rows={4} />
      ) : (
        <EmptyState title={run.complete ? 'No task matches' : 'No match yet'}>
          {run.complete ? 'Nothing in Redis matches every filter. Remove a word or a chip to widen the search.' : 'The search has not reached a match so far.'}
        </EmptyState>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-line px-3 py-2 text-xs text-muted">
        <span className="hidden items-center gap-1 md:flex">
          <Kbd>j</Kbd>
          <Kbd>k</Kbd> move · <Kbd>↵</Kbd> open
        </span>
        {query.isError && <span className="text-danger">{query.error.message}</span>}
        <span className="ml-auto flex items-center gap-2">
          {run.complete ? 'End of results' : `${tasks.length.toLocaleString('en-US')} shown`}
          {!run.complete && (
            <Button size="sm" disabled={run.searching} onClick={run.loadMore}>
              Load more
            </Button>
          )}
        </span>
      </div>
    </>
  );
}
