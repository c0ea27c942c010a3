'use client';

import { Icon } from '@/components/ui/icons';
import type { FilterPair } from '@/lib/url-state';
import { chipText } from './filter-kinds';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

/** The filter as removable chips. Same-kind chips match any of them; different kinds all must match. */
export function FilterChips({ filter, onRemove }: { filter: readonly FilterPair[]; onRemove: (index: number) => void }) {
  return (
    <ul aria-label="Filters" className="contents">
      {filter.map((pair, i) => {
        const { field, op, value } = chipText(pair);
        return (
          <li
            key={`${pair[0]}\n${pair[1]}`}
            className="inline-flex h-7 max-w-full items-center gap-1 rounded-md border border-line-strong bg-panel pr-0.5 pl-2 text-xs"
          >
            <span className="text-muted">{field}</span>
            <span className="text-subtle">{op}</span>
            <span className="max-w-72 truncate font-medium" title={escapeText(value)}>
              {value === '' ? '""' : <SafeText text={value} />}
            </span>
            <button
              type="button"
              aria-label={escapeText(`Remove filter ${field} ${op} ${value}`)}

              onClick={() => onRemove(i)}
              className="grid size-5 place-items-center rounded text-subtle hover:bg-hover hover:text-fg"
            >
              <Icon name="x" size={11} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
