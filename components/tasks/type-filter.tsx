'use client';

import { useRef } from 'react';
import { Select } from '@/components/ui/select';
import { escapeText } from '@/lib/display-text';

/** A `type:` word of a filter query, unquoted or quoted (the search language's own syntax). */
const TYPE_WORD = /(?:^|\s)type:(?:"((?:[^"\\]|\\.)*)"|(\S+))(?=\s|$)/;

/** The exact task type a tab's filter query names with `type:` (not a `type:x*` prefix), or ''. */
export function typeFilterOf(q: string): string {
  const m = TYPE_WORD.exec(q);
  const value = m?.[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m?.[2] ?? '');
  return value.endsWith('*') ? '' : value;
}

/**
 * `q` with its `type:` word replaced by one for `type` ('' removes it), the other words kept:
 * the type control and the filter box edit the one query, so either shows what the other set.
 */
export function withTypeFilter(q: string, type: string): string {
  let rest = q;
  while (TYPE_WORD.test(rest)) rest = rest.replace(TYPE_WORD, ' ');
  rest = rest.trim().replace(/\s+/g, ' ');
  if (!type) return rest;
  const word = /^[^\s"\\]+$/.test(type) ? `type:${type}` : `type:"${type.replace(/["\\]/g, '\\$&')}"`;
  return rest ? `${word} ${rest}` : word;
}

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
