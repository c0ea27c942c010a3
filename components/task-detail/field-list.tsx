import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { SafeText } from '@/components/ui/safe-text';

/**
 * A two-column list of labelled values. `mono` is for raw key/value text (a task's headers):
 * monospaced, tighter, and broken anywhere since keys and values have no spaces to break at.
 */
export function FieldList({ fields, mono = false }: { fields: [string, ReactNode][]; mono?: boolean }) {
  return (
    <dl
      className={cn(
        'grid gap-x-4',
        mono ? 'grid-cols-[minmax(6rem,auto)_1fr] gap-y-1 font-mono text-xs' : 'grid-cols-[minmax(7rem,auto)_1fr] gap-y-1.5 text-[13px]',
      )}
    >
      {fields.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className={cn('text-muted', mono && 'break-all')}>
            <SafeText text={label} />
          </dt>

          <dd className={mono ? 'break-all' : 'min-w-0 break-words'}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
