'use client';

import { useState } from 'react';
import { ExactTime } from '@/components/common/exact-time';
import { ConfirmDialog } from '@/components/common/confirm-dialog';
import { toLocalInput } from '@/components/enqueue/enqueue-draft';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toaster';
import type { TaskDto } from '@/lib/contract/tasks';
import { useReschedule } from '@/lib/query/task-mutations';

/** The states whose tasks wait for a time asynq's forwarder reads: the ones that can move. */
export const canReschedule = (state: string): boolean => state === 'scheduled' || state === 'retry';

/**
 * A new process time for a scheduled or retry task, picked in the viewer's time zone and
 * confirmed. The server judges the bounds (a minute in the past to a year ahead) and its
 * refusal is shown here in its own words.
 */
export function RescheduleDialog({ task, onClose }: { task: TaskDto; onClose: () => void }) {
  const [value, setValue] = useState(() => toLocalInput(task.nextProcessAt));
  const m = useReschedule(task.queue, task.id);
  const picked = value === '' ? null : new Date(value);
  const valid = picked !== null && !Number.isNaN(picked.getTime());
  const submit = () => {
    if (!valid) return;
    m.mutate(picked.toISOString(), {
      onSuccess: () => {
        toast(`Rescheduled task ${task.id}`, 'success');
        onClose();
      },
    });
  };
  return (
    <ConfirmDialog open title="Reschedule this task?" confirmLabel="Reschedule" pending={m.isPending} confirmDisabled={!valid} onConfirm={submit} onClose={onClose}>
      <div className="flex flex-col gap-3">
        <p>
          The {task.state} task <code className="font-mono break-all text-fg">{task.id}</code> runs{' '}
          <ExactTime iso={task.nextProcessAt} />. Only its time changes: its payload, retries and unique lock stay as they are.
        </p>
        <Field id="reschedule-at" label="New time (your time zone)" error={m.error?.message ?? (value !== '' && !valid ? 'Not a date and time' : null)}>
          <Input
            id="reschedule-at"
            type="datetime-local"
            step={1}
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              m.reset();
            }}
            aria-invalid={!!m.error}
            aria-describedby="reschedule-at-msg"
          />
        </Field>
        {valid && (
          <p className="text-xs text-muted" data-testid="reschedule-preview">
            Runs <ExactTime iso={picked.toISOString()} />
          </p>
        )}
      </div>
    </ConfirmDialog>
  );
}
