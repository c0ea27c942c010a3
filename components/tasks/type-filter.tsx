'use client';

import { useRef } from 'react';
import { Select } from '@/components/ui/select';
import { escapeText } from '@/lib/display-text';
import { typeFilterOf, withTypeFilter } from '@/lib/url-state';

interface Props {
  /** The tab's filter query; the control reads and writes its `type:` word. */
  q: string;
  /** Tasks on screen (the plain page or the filter's matches): the types offered. */
  tasks: readonly { type: string }[];
  onChange: (q: string) => void;
}

/**
 * Narrows a state tab to one task type through the filter's own `type:` word, so the filter box,
 * the URL and this control always agree. The types offered are those seen on screen while the
 * tab is open (no extra Redis read: a queue-wide type count would need a scan).
 */
export function TypeFilter({ q, tasks, onChange }: Props) {
  const seen = useRef(new Set<string>());
  for (const t of tasks) if (t.type) seen.current.add(t.type);
  const current = typeFilterOf(q);
  if (current) seen.current.add(current);
  const types = [...seen.current].sort();
  return (
    <label className="flex shrink-0 items-center gap-2 text-xs text-muted">
      Type
      <Select value={current} onChange={(e) => onChange(withTypeFilter(q, e.target.value))} aria-label="Task type">
        <option value="">Every type</option>
        {types.map((t) => (
          <option key={t} value={t}>
            {escapeText(t)}
          </option>
        ))}
      </Select>
    </label>
  );
}
