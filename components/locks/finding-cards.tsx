'use client';

import { LOCK_FINDINGS, type LockFilter } from '@/lib/url-state';
import { cn, formatNumber } from '@/lib/utils';
import { FINDING_LABEL, FINDING_TONE } from './lock-labels';

const HINT: Record<(typeof LOCK_FINDINGS)[number], string> = {
  held_by_archived: 're-enqueue refused',
  orphaned: 'safe to release',
  expires_before_retries_end: 'a duplicate can slip in',
  no_expiry: 'refused until deleted',
};

interface Props {
  counts: Record<LockFilter, number>;
  total: number;
  queues: number;
  active: LockFilter | undefined;
  onChange: (f: LockFilter | undefined) => void;
}

/** The Uniqueness page's summary: locks in all, then per finding; a card filters the table. */
export function FindingCards({ counts, total, queues, active, onChange }: Props) {
  const card = (key: LockFilter | undefined, label: string, value: number, sub: string, tone?: 'red' | 'amber') => (
    <button
      key={key ?? 'all'}
      type="button"
      aria-pressed={active === key}
      onClick={() => onChange(active === key ? undefined : key)}
      className={cn(
        'rounded-lg border bg-panel px-3 py-2.5 text-left hover:bg-hover',
        active === key ? 'border-accent ring-1 ring-accent' : 'border-line',
      )}
    >
      <span className="block min-h-[2.5em] text-[11px] leading-tight font-medium tracking-wide text-muted uppercase">{label}</span>
      <span
        className={cn(
          'tabular block text-xl font-semibold tracking-tight',
          value > 0 && tone === 'red' && 'text-danger',
          value > 0 && tone === 'amber' && 'text-warning',
        )}
      >
        {formatNumber(value)}
      </span>
      <span className="mt-0.5 block truncate text-xs text-muted">{sub}</span>
    </button>
  );
  return (
    <div role="group" aria-label="Locks by finding" className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
      {card(undefined, 'Locks', total, `in ${formatNumber(queues)} ${queues === 1 ? 'queue' : 'queues'}`)}
      {LOCK_FINDINGS.map((f) => card(f, FINDING_LABEL[f], counts[f], HINT[f], FINDING_TONE[f] === 'red' ? 'red' : 'amber'))}
      {card('healthy', 'No finding', counts.healthy, 'holder still needs it')}
    </div>
  );
}
