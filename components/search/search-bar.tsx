'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { Kbd } from '@/components/ui/kbd';
import type { QueryPairs } from '@/lib/paths';
import { mergeFilter } from '@/lib/url-state';
import { AddFilter } from './add-filter';
import { FilterChips } from './filter-chips';
import { parseQuickQuery } from './quick-query';

interface Props {
  filter: QueryPairs;
  onChange: (next: QueryPairs) => void;
}

/** The page's search box (what is typed becomes chips), the chips, and "Add filter". */
export function SearchBar({ filter, onChange }: Props) {
  const [text, setText] = useState('');
  return (
    <div className="flex flex-col gap-2 border-b border-line p-3">
      <form
        role="search"
        className="relative flex items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const pairs = parseQuickQuery(text);
          if (pairs.length > 0) onChange(mergeFilter(filter, pairs));
          setText('');
        }}
      >
        <Icon name="search" size={14} className="pointer-events-none absolute left-2.5 text-subtle" />
        <input
          data-search-input
          autoFocus={filter.length === 0}
          type="search"
          aria-label="Search tasks"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="4711 · type:email:welcome · state:retry · payload.orderId=4711 · header.tenant=acme · error:timeout"
          autoComplete="off"
          className="h-9 min-w-0 flex-1 rounded-md border border-line-strong bg-bg pr-12 pl-8 text-[13px] text-fg placeholder:text-subtle"
        />
        <span className="pointer-events-none absolute right-[4.5rem] hidden items-center gap-0.5 sm:flex">
          <Kbd>/</Kbd>
        </span>
        <Button type="submit" variant="primary" disabled={text.trim() === ''}>
          Add
        </Button>
      </form>
      <div className="flex flex-wrap items-center gap-1.5">
        <FilterChips filter={filter} onRemove={(i) => onChange(filter.filter((_, j) => j !== i))} />
        <AddFilter onAdd={(pair) => onChange(mergeFilter(filter, [pair]))} />
        {filter.length > 1 && (
          <Button size="sm" variant="ghost" onClick={() => onChange([])}>
            Clear all
          </Button>
        )}
        {filter.length > 1 && <span className="ml-auto text-[11px] text-subtle">Chips of one kind match any; different kinds must all match.</span>}
      </div>
    </div>
  );
}
