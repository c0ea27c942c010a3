import { plural } from '@/components/tasks/task-actions';
import type { KeepOneOutcome } from './use-keep-one';
import { SafeText } from '@/components/ui/safe-text';

/** What "keep one" did, shown until the next one (the scan below restarts with fresh counts). */
export function KeepOneOutcomeBanner({ outcome, onDismiss }: { outcome: KeepOneOutcome; onDismiss: () => void }) {
  const failed = outcome.failed.length;
  return (
    <div
      role="status"
      className={`flex items-start gap-2 border-b border-line px-3 py-2 text-[13px] ${failed > 0 ? 'bg-warning-soft' : 'bg-success-soft'}`}
    >
      <p className="min-w-0 flex-1">
        Deleted <strong>{plural(outcome.deleted, 'duplicate task')}</strong>, keeping one of each of {plural(outcome.groups, 'group')}.
        {failed > 0 && (
          <>
            {' '}
            {plural(failed, 'task')} could not be deleted (<SafeText text={`${outcome.failed[0]?.id ?? ''}: ${outcome.failed[0]?.error.message ?? ''}`} />)
.
          </>
        )}
      </p>
      <button type="button" aria-label="Dismiss" onClick={onDismiss} className="text-subtle hover:text-fg">
        ×
      </button>
    </div>
  );
}
