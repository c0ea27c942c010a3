import { Icon } from '@/components/ui/icons';
import type { LockDto } from '@/lib/contract/diagnostics';
import { cn } from '@/lib/utils';
import { FINDING_LABEL, FINDING_TONE } from './lock-labels';
import { SafeText } from '@/components/ui/safe-text';

/** A lock's findings in the API's own words (they name the task and the times that matter). */
export function FindingCallouts({ findings, className }: { findings: LockDto['findings']; className?: string }) {
  if (findings.length === 0) return null;
  return (
    <ul className={cn('flex flex-col gap-1.5', className)}>
      {findings.map((f) => (
        <li
          key={f.code}
          data-finding={f.code}
          className={cn(
            'flex items-start gap-2 rounded-md border px-2.5 py-1.5 text-xs leading-relaxed text-fg',
            FINDING_TONE[f.code] === 'red' ? 'border-danger/30 bg-danger-soft' : 'border-warning/30 bg-warning-soft',
          )}
        >
          <Icon name="alert" size={13} className={cn('mt-0.5 shrink-0', FINDING_TONE[f.code] === 'red' ? 'text-danger' : 'text-warning')} />
          <span className="min-w-0 break-words">
            <strong className="font-semibold">{FINDING_LABEL[f.code]}.</strong> <SafeText text={f.message} />

          </span>
        </li>
      ))}
    </ul>
  );
}
