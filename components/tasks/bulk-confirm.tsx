'use client';

import { ConfirmDialog } from '@/components/common/confirm-dialog';
import { toast } from '@/components/ui/toaster';
import type { TaskStateDto } from '@/lib/contract/tasks';
import type { TaskPageParams } from '@/lib/query/keys';
import type { BulkResultDto } from '@/lib/contract/mutations';
import type { BulkAction } from '@/lib/contract/task-actions';
import { useBulkAction, useTaskAction } from '@/lib/query/task-mutations';
import { ArchiveLimitWarning, useArchiveLimit } from './archive-limit-check';
import { ACTION_LABEL, plural } from './task-actions';
import { SafeText } from '@/components/ui/safe-text';

export interface BulkRequest {
  action: BulkAction;
  state: TaskStateDto;
  /** undefined: every task in the state. */
  ids: string[] | undefined;
  /** With ids undefined: only this aggregation group. */
  group?: string | undefined;
  /** The state's size when asked, for the confirmation text. */
  total?: number;
  /** A single row's delete: optimistic, from this page. */
  single?: TaskPageParams;
}

function report(action: BulkAction, r: BulkResultDto) {
  const trimmed = r.trimmed > 0 ? `; asynq's archive limit deleted ${plural(r.trimmed, 'older archived task')}` : '';
  const done = `${ACTION_LABEL[action].past} ${plural(r.succeeded, 'task')}${trimmed}`;
  const stopped = r.stopped ? ' The server stopped early; run it again for the rest.' : '';
  if (r.failed.length === 0) return toast(done + stopped, r.stopped ? 'info' : 'success');
  const first = r.failed[0];
  toast(`${done}; ${r.failed.length} failed (${first?.id}: ${first?.error.message}).${stopped}`, 'error');
}

interface Props {
  qname: string;
  request: BulkRequest | null;
  onDone: () => void;
  onCancel: () => void;
}

/**
 * Asks before a bulk action (or a single delete), stating exactly how many tasks it touches;
 * an archive that passes asynq's archive limit also says how many archived tasks go, and
 * waits for the queue's name to be typed. Bulk actions are not optimistic: the dialog shows
 * progress, then a toast gives the counts, the archived tasks the limit deleted among them.
 */
export function BulkConfirm(props: Props) {
  return props.request ? <BulkConfirmDialog {...props} request={props.request} /> : null;
}

/** Mounted per request, so a typed confirmation never carries over to the next one. */
function BulkConfirmDialog({ qname, request, onDone, onCancel }: Props & { request: BulkRequest }) {
  const bulk = useBulkAction(qname);
  const single = useTaskAction(qname);
  const { action, state, ids, group, total = 0, single: page } = request;
  const count = ids ? ids.length : total;
  const limit = useArchiveLimit(action === 'archive' && !page ? { [qname]: count } : null);
  const verb = ACTION_LABEL[action].verb;
  const what = plural(count, `${state} task`);
  const confirm = () => {
    if (page && ids?.[0]) {
      single.mutate({ taskId: ids[0], action, page });
      return onDone();
    }
    bulk.mutate({ action, state, ...(ids ? { ids } : {}), ...(group && !ids ? { group } : {}) }, { onSuccess: (r) => { report(action, r); onDone(); } });
  };
  return (
    <ConfirmDialog
      open
      title={page ? `${verb} this task?` : `${verb} ${what}?`}
      confirmLabel={page ? verb : `${verb} ${count.toLocaleString('en-US')}`}
      danger={action === 'delete' || limit.atRisk.length > 0}
      pending={bulk.isPending}
      confirmDisabled={limit.blocked}
      onConfirm={confirm}
      onClose={onCancel}
    >
      {page ? (
        <p>
          Task <code className="font-mono break-all text-fg"><SafeText text={ids?.[0] ?? ''} /></code> will be deleted from queue <strong className="break-all text-fg"><SafeText text={qname} /></strong>. This cannot be undone.
        </p>
      ) : (
        <p>
          {ids ? 'The' : 'All'} <strong className="text-fg">{what}</strong> {ids ? 'you selected' : ''}
          {group && !ids && <> of group <strong className="break-all text-fg"><SafeText text={group} /></strong></>} in queue{' '}
          <strong className="break-all text-fg"><SafeText text={qname} /></strong> will be
 {ACTION_LABEL[action].outcome}.
          {!ids && ' Tasks that enter this state before the action runs are included.'}
          {action === 'delete' && ' This cannot be undone.'}
        </p>
      )}
      {action === 'archive' && !page && <ArchiveLimitWarning check={limit} />}
    </ConfirmDialog>
  );
}
