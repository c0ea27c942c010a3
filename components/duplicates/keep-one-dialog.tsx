'use client';

import { plural } from '@/components/tasks/task-actions';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { formatNumber } from '@/lib/utils';
import type { KeepOneStep } from './use-keep-one';
import { SafeText } from '@/components/ui/safe-text';

interface Props {
  qname: string;
  states: readonly string[];
  state: KeepOneStep;
  pending: boolean;
  error: Error | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** States the exact number of tasks "keep one" deletes before it deletes anything. */
export function KeepOneDialog({ qname, states, state, pending, error, onConfirm, onClose }: Props) {
  if (state.step === 'idle') return null;
  const plan = state.step === 'confirm' ? state.plan : null;
  const n = plan?.ids.length ?? 0;
  return (
    <Dialog
      open
      onClose={onClose}
      title={plan ? `Delete ${plural(n, 'duplicate task')}?` : 'Keep one, delete the rest'}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" disabled={pending || !plan || n === 0} onClick={onConfirm} autoFocus={!!plan}>
            {pending ? 'Deleting…' : state.step === 'listing' ? 'Listing tasks…' : `Delete ${formatNumber(n)}`}
          </Button>
        </>
      }
    >
      {state.step === 'listing' && (
        <p role="status">
          Listing every task of {plural(state.groups, 'group')} first (a scan names 20 per group), so that the count you confirm is exact…
        </p>
      )}
      {state.step === 'failed' && (
        <p role="alert" className="text-danger">
          <SafeText text={state.message} />
        </p>
      )}
      {plan && (
        <div className="flex flex-col gap-2">
          <p>
            The oldest task of each of the <strong className="text-fg">{plural(plan.groups, 'group')}</strong> stays; the other{' '}
            <strong className="text-fg">{plural(n, 'task')}</strong> in queue <strong className="break-all text-fg">{qname}</strong> ({states.join(', ')}) are
            deleted. This cannot be undone.
          </p>
          {state.step === 'confirm' && state.near && (
            <p>Near groups: the tasks deleted differ from the one kept only in the fields that vary (time stamps, request IDs).</p>
          )}
          {plan.unlisted > 0 && (
            <p className="text-warning">
              {plural(plan.unlisted, 'more task')} of these groups could not be listed in one pass and stay for now: run this again afterwards.
            </p>
          )}
          {n === 0 && <p>Nothing to delete: these groups have no duplicates left.</p>}
          {error && (
            <p role="alert" className="text-danger">
              <SafeText text={error.message} />

            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
