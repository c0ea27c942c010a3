/**
 * How each filter parameter reads as a chip ("Payload contains 4711"), and the kinds the
 * "Add filter" form offers. Pure: no React.
 */
import type { FilterPair } from '@/lib/url-state';
import { formatTimestamp } from '@/lib/utils';

export interface ChipText {
  field: string;
  op: string;
  value: string;
}

const FIXED: Record<string, [field: string, op: string]> = {
  q: ['Query', ''],
  queue: ['Queue', 'is'],
  state: ['State', 'is'],
  type: ['Type', 'is'],
  typePrefix: ['Type', 'starts with'],
  id: ['ID', 'is'],
  payload: ['Payload', 'contains'],
  error: ['Last error', 'contains'],
  minRetried: ['Retried', '≥'],
  lastFailedAfter: ['Last failed', 'after'],
  lastFailedBefore: ['Last failed', 'before'],
  nextRunAfter: ['Next run', 'after'],
  nextRunBefore: ['Next run', 'before'],
  completedAfter: ['Completed', 'after'],
  completedBefore: ['Completed', 'before'],
};

export function chipText([key, value]: FilterPair): ChipText {
  if (key.startsWith('payload.')) return { field: key, op: '=', value };
  if (key.startsWith('header.')) return { field: `Header ${key.slice(7)}`, op: '=', value };
  const [field, op] = FIXED[key] ?? [key, '='];
  const isTime = /After$|Before$/.test(key);
  return { field, op, value: isTime ? formatTimestamp(value) : value };
}

/** What the "Add filter" form offers, in its order, each with its label. */
export const ADD_KIND_LABELS = {
  queue: 'Queue',
  state: 'State',
  type: 'Type is',
  typePrefix: 'Type starts with',
  id: 'Task ID',
  payload: 'Payload contains',
  payloadField: 'Payload JSON field =',
  error: 'Last error contains',
  header: 'Header =',
  minRetried: 'Retried at least',
  lastFailed: 'Last failed',
  nextRun: 'Next run',
  completed: 'Completed',
} as const;

export type AddKind = keyof typeof ADD_KIND_LABELS;

export const TIME_KINDS: readonly AddKind[] = ['lastFailed', 'nextRun', 'completed'];
export const TWO_PART_KINDS: readonly AddKind[] = ['payloadField', 'header'];

/** The add form's inputs → a filter pair, or why not. */
export function toPair(kind: AddKind, first: string, second: string, when: 'After' | 'Before'): FilterPair | string {
  const a = first.trim();
  if (TIME_KINDS.includes(kind)) {
    const t = new Date(a);
    return a && !Number.isNaN(t.getTime()) ? [`${kind}${when}`, t.toISOString()] : 'Pick a date and time';
  }
  if (kind === 'payloadField' || kind === 'header') {
    const path = a.replace(/^(payload|header)\./, '');
    if (!path || (kind === 'payloadField' && path.split('.').some((s) => s === ''))) return kind === 'header' ? 'Name the header' : 'Give a path such as user.id';
    return [`${kind === 'header' ? 'header' : 'payload'}.${path}`, second];
  }
  if (kind === 'minRetried') return /^\d+$/.test(a) ? ['minRetried', a] : 'A whole number ≥ 0';
  if (!a) return 'Enter a value';
  return [kind, kind === 'payload' || kind === 'error' ? first : a];
}
