'use client';

import { Button } from '@/components/ui/button';
import type { QueryPairs } from '@/lib/paths';
import { mergeFilter } from '@/lib/url-state';
import { AddFilter } from './add-filter';
import { FilterChips } from './filter-chips';
import { QueryBox } from './query-box';
import type { SeenTask } from './query-suggest';

interface Props {
  filter: QueryPairs;
  onChange: (next: QueryPairs) => void;
  /** The search's error and its tasks on screen (completions), from the search itself. */
  error: unknown;
  tasks: readonly SeenTask[];
}

/** The page's search box (the query, `q`), the other parameters as chips, and "Add filter". */
export function SearchBar({ filter, onChange, error, tasks }: Props) {
  const q = filter.find(([k]) => k === 'q')?.[1] ?? '';
  const chips = filter.filter(([k]) => k !== 'q');
  const withChips = (next: QueryPairs) => onChange(q ? [...next, ['q', q]] : next);
  return (
    <div className="flex flex-col gap-2 border-b border-line p-3">
      <QueryBox
        value={q}
        onSubmit={(text) => onChange(text ? mergeFilter(chips, [['q', text]]) : chips)}
        error={error}
        tasks={tasks}
        label="Search tasks"
        placeholder="4711 · 3f2c81a0 · type:email:* · state:retry · user_id:42 · amount>100 · error:timeout"
        autoFocus={filter.length === 0}
      />
      <div className="flex flex-wrap items-center gap-1.5">
        <FilterChips filter={chips} onRemove={(i) => withChips(chips.filter((_, j) => j !== i))} />
        <AddFilter onAdd={(pair) => withChips(mergeFilter(chips, [pair]))} />
        {filter.length > 1 && (
          <Button size="sm" variant="ghost" onClick={() => onChange([])}>
            Clear all
          </Button>
        )}
        {chips.length > 1 && <span className="ml-auto text-[11px] text-subtle">Chips of one kind match any; different kinds must all match, and so must the query.</span>}
      </div>
    </div>
  );
}
