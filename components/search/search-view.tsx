'use client';

import { PageHeader } from '@/components/common/page-header';
import { EmptyState } from '@/components/common/states';
import { Panel } from '@/components/ui/panel';
import { filterKey } from '@/lib/query/search';
import { SavedSearches } from './saved-searches';
import { SearchBar } from './search-bar';
import { SearchResults } from './search-results';
import { useSearchFilter } from './use-search-filter';
import { useSearchSnapshot } from './use-search-run';

/**
 * Find any task: filters as chips (kept in the URL, so the address is the link to share), the
 * matches streamed from a resumable cursor with progress and Stop, and acting on every match.
 */
export function SearchView() {
  const { filter, ignored, setFilter } = useSearchFilter();
  const { tasks, error } = useSearchSnapshot(filter);
  return (
    <>
      <PageHeader
        title="Search"
        meta={<span>Every queue and state, read at most 5,000 tasks per request.</span>}
        actions={<SavedSearches filter={filter} />}
      />
      <Panel flush>
        <SearchBar filter={filter} onChange={setFilter} error={error} tasks={tasks} />
        {ignored.length > 0 && (
          <p role="status" className="border-b border-line bg-warning-soft px-3 py-1.5 text-xs text-warning">
            Ignored what is not a filter: {ignored.join(', ')}.
          </p>
        )}
        {filter.length === 0 ? (
          <EmptyState title="Search every task">
            Type words (an order number, the first characters of a task ID) or fields (type:email:*, user_id:42, amount&gt;100) and press
            Enter, or add filters by kind. Press / or Ctrl+K anywhere to come back to this box.
          </EmptyState>
        ) : (
          <SearchResults key={filterKey(filter)} filter={filter} />
        )}
      </Panel>
    </>
  );
}
