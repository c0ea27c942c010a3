'use client';

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { SafeText } from '@/components/ui/safe-text';
import { isApiError } from '@/lib/query/fetcher';
import { complete, vocabularyOf, type Completion, type SeenTask } from './query-suggest';

/** The language at a glance (full grammar: docs/api.md, "Search query"). */
export const QUERY_SYNTAX =
  'type:email:*  id:3f2c81a0  queue:mail  state:retry,archived  -state:completed  error:"timeout"  user_id:42  customer.city:Paris  amount>100  -user_id:42  header.tenant:acme  "a phrase"';

/** Where the server says the query is wrong: its 400 carries the offset and the word. */
export function queryErrorAt(error: unknown): { offset: number; token: string; message: string } | null {
  if (!isApiError(error) || error.status !== 400 || error.details.field !== 'q') return null;
  const { offset, token } = error.details;
  if (typeof offset !== 'number' || typeof token !== 'string') return null;
  return { offset, token, message: error.message };
}

interface Props {
  /** The query searched for; the box edits a draft of it until Enter. */
  value: string;
  onSubmit: (q: string) => void;
  /** The search's error: a query error is marked at its word under the box. */
  error: unknown;
  /** Tasks on screen, whose types, queues and payload fields are offered as completions. */
  tasks: readonly SeenTask[];
  label: string;
  placeholder: string;
  autoFocus?: boolean;
}

/** A search query box: completions under the caret, the syntax, and the server's error at its word. */
export function QueryBox({ value, onSubmit, error, tasks, label, placeholder, autoFocus }: Props) {
  const [text, setText] = useState(value);
  const [caret, setCaret] = useState(value.length);
  const [active, setActive] = useState(0);
  const [closed, setClosed] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  useEffect(() => setText(value), [value]);
  const vocab = useMemo(() => vocabularyOf(tasks), [tasks]);
  const completion: Completion | null = closed ? null : complete(text, caret, vocab);
  const bad = queryErrorAt(error);

  const accept = (c: Completion, i: number) => {
    const item = c.items[i] ?? c.items[0]!;
    const next = text.slice(0, c.from) + item.insert + text.slice(c.to);
    const at = c.from + item.insert.length;
    setText(next);
    setCaret(at);
    setActive(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (!completion) return;
    const n = completion.items.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
    } else if (e.key === 'Tab' || (e.key === 'Enter' && active > 0)) {
      e.preventDefault();
      accept(completion, active);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setClosed(true);
    }
  };

  return (
    <form
      role="search"
      className="flex flex-col gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        setClosed(true);
        onSubmit(text.trim());
      }}
    >
      <div className="relative flex items-center gap-2">
        <Icon name="search" size={14} className="pointer-events-none absolute left-2.5 text-subtle" />
        <input
          ref={input}
          data-search-input
          autoFocus={autoFocus}
          type="search"
          role="combobox"
          aria-label={label}
          aria-expanded={completion !== null}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-invalid={bad !== null}
          aria-activedescendant={completion ? `${listId}-${active}` : undefined}
          value={text}
          spellCheck={false}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart ?? e.target.value.length);
            setActive(0);
            setClosed(false);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? text.length)}
          onKeyDown={onKeyDown}
          onBlur={() => setClosed(true)}
          placeholder={placeholder}
          autoComplete="off"
          className="h-9 min-w-0 flex-1 rounded-md border border-line-strong bg-bg pr-3 pl-8 font-mono text-[13px] text-fg placeholder:font-sans placeholder:text-subtle aria-invalid:border-danger"
        />
        <Button type="submit" variant="primary">
          Search
        </Button>
        {completion && (
          <ul id={listId} role="listbox" aria-label="Completions" className="absolute top-full left-8 z-20 mt-1 min-w-56 rounded-md border border-line bg-panel p-1 shadow-lg">
            {completion.items.map((item, i) => (
              <li
                key={item.label}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                onMouseDown={(e) => {
                  e.preventDefault();
                  accept(completion, i);
                }}
                className="cursor-pointer truncate rounded px-2 py-1 font-mono text-xs aria-selected:bg-hover"
              >
                <SafeText text={item.label} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {bad ? (
        <p role="alert" data-testid="query-error" className="text-xs text-danger">
          <code className="mr-2 rounded bg-bg-subtle px-1 font-mono text-fg">
            <SafeText text={value.slice(0, bad.offset)} />
            <mark className="rounded-sm bg-danger-soft text-danger underline decoration-wavy">
              <SafeText text={bad.token === '' ? ' ' : bad.token} />
            </mark>
            <SafeText text={value.slice(bad.offset + bad.token.length)} />
          </code>
          <SafeText text={bad.message} />
        </p>
      ) : (
        <p data-testid="query-syntax" className="truncate font-mono text-[11px] text-subtle" title={QUERY_SYNTAX}>
          {QUERY_SYNTAX}
        </p>
      )}
    </form>
  );
}
