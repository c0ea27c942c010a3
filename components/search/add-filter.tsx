'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { queueListQuery } from '@/lib/query/queues';
import { TASK_STATES, type FilterPair } from '@/lib/url-state';
import { ADD_KIND_LABELS, TIME_KINDS, toPair, TWO_PART_KINDS, type AddKind } from './filter-kinds';

const PLACEHOLDER: Partial<Record<AddKind, string>> = {
  type: 'email:welcome',
  typePrefix: 'email:',
  id: 'task ID',
  payload: 'text in the payload',
  payloadField: 'user.id',
  error: 'timeout',
  header: 'tenant',
  minRetried: '3',
};

/** "+ Filter": pick a kind, fill in its value(s), add it as a chip. */
export function AddFilter({ onAdd }: { onAdd: (pair: FilterPair) => void }) {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<AddKind>('queue');
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [when, setWhen] = useState<'After' | 'Before'>('After');
  const [problem, setProblem] = useState<string | null>(null);
  const queues = useQuery({ ...queueListQuery(), enabled: open && kind === 'queue' });
  if (!open) {
    return (
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)}>
        <Icon name="plus" size={12} /> Add filter
      </Button>
    );
  }
  const value = kind === 'state' ? first || TASK_STATES[0] : first;
  const submit = () => {
    const pair = toPair(kind, value, second, when);
    if (typeof pair === 'string') return setProblem(pair);
    onAdd(pair);
    setFirst('');
    setSecond('');
    setProblem(null);
    setOpen(false);
  };
  return (
    <form
      aria-label="Add filter"
      className="flex w-full flex-wrap items-center gap-1.5 rounded-md border border-line bg-bg-subtle p-1.5"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Select aria-label="Filter kind" value={kind} onChange={(e) => { setKind(e.target.value as AddKind); setFirst(''); setProblem(null); }}>
        {Object.entries(ADD_KIND_LABELS).map(([kind, label]) => <option key={kind} value={kind}>{label}</option>)}
      </Select>
      {TIME_KINDS.includes(kind) && (
        <Select aria-label="After or before" value={when} onChange={(e) => setWhen(e.target.value as 'After' | 'Before')}>
          <option value="After">after</option>
          <option value="Before">before</option>
        </Select>
      )}
      {kind === 'state' ? (
        <Select aria-label="Filter value" value={value} onChange={(e) => setFirst(e.target.value)}>
          {TASK_STATES.map((s) => <option key={s}>{s}</option>)}
        </Select>
      ) : (
        <Input
          autoFocus
          aria-label={TWO_PART_KINDS.includes(kind) ? (kind === 'header' ? 'Header name' : 'JSON path') : 'Filter value'}
          type={TIME_KINDS.includes(kind) ? 'datetime-local' : kind === 'minRetried' ? 'number' : 'text'}
          min={kind === 'minRetried' ? 0 : undefined}
          list={kind === 'queue' ? 'add-filter-queues' : undefined}
          placeholder={PLACEHOLDER[kind] ?? ''}
          value={first}
          onChange={(e) => setFirst(e.target.value)}
          className="h-7 w-56"
        />
      )}
      {TWO_PART_KINDS.includes(kind) && (
        <Input aria-label="Equals" placeholder="value" value={second} onChange={(e) => setSecond(e.target.value)} className="h-7 w-48" />
      )}
      <datalist id="add-filter-queues">
        {queues.data?.queues.map((q) => <option key={q.queue} value={q.queue} />)}
      </datalist>
      <Button size="sm" type="submit" variant="primary">Add</Button>
      <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>Cancel</Button>
      {problem && <span role="alert" className="text-xs text-danger">{problem}</span>}
    </form>
  );
}
