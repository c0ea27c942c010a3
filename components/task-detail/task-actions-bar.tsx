'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/common/confirm-dialog';
import { ACTION_ICON, ACTION_LABEL, allowedActions } from '@/components/tasks/task-actions';
import { canReschedule, RescheduleDialog } from '@/components/tasks/reschedule-dialog';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { toast } from '@/components/ui/toaster';
import type { TaskDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
import type { TaskAction } from '@/lib/contract/task-actions';
import { useTaskAction } from '@/lib/query/task-mutations';

/** The actions this task's state allows. Delete asks first, then returns to the queue. */
export function TaskActionsBar({ task }: { task: TaskDto }) {
  const router = useRouter();
  const m = useTaskAction(task.queue);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [rescheduling, setRescheduling] = useState(false);
  const act = (action: TaskAction) =>
    m.mutate(
      { taskId: task.id, action },
      {
        onSuccess: () => {
          toast(`${ACTION_LABEL[action].past} task ${task.id}`, 'success');
          if (action === 'delete') router.push(paths.queue(task.queue, { state: task.state }));
        },
      },
    );
  return (
    <>
      {canReschedule(task.state) && !task.problem && (
        <Button disabled={m.isPending} onClick={() => setRescheduling(true)}>
          <Icon name="clock" size={13} />
          Reschedule
        </Button>
      )}
      {rescheduling && <RescheduleDialog task={task} onClose={() => setRescheduling(false)} />}
      {allowedActions(task.state).map((a) => (
        <Button
          key={a}
          variant={a === 'delete' ? 'danger' : a === 'run' ? 'primary' : 'default'}
          disabled={m.isPending}
          onClick={() => (a === 'delete' ? setConfirmDelete(true) : act(a))}
        >
          <Icon name={ACTION_ICON[a]} size={13} />
          {ACTION_LABEL[a].verb}
        </Button>
      ))}
      <ConfirmDialog
        open={confirmDelete}
        title="Delete this task?"
        confirmLabel="Delete"
        danger
        pending={m.isPending}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          act('delete');
        }}
      >
        <p>
          The {task.state} task <code className="font-mono break-all text-fg">{task.id}</code> will be removed from queue{' '}
          <strong className="break-all text-fg">{task.queue}</strong>. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
