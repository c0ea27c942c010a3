'use client';

import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import type { TaskAction } from '@/lib/contract/task-actions';
import { ACTION_ICON, ACTION_LABEL } from './task-actions';

/** Icon buttons for one row's allowed actions. */
export function TaskRowActions({ actions, onAction, onReschedule, disabled }: {
  actions: TaskAction[];
  onAction: (a: TaskAction) => void;
  /** Given for a scheduled or retry task: a button that opens the new-time dialog. */
  onReschedule?: (() => void) | undefined;
  disabled?: boolean;
}) {
  return (
    <div className="flex justify-end gap-0.5 opacity-60 group-hover:opacity-100 group-focus-within:opacity-100">
      {onReschedule && (
        <Button
          size="sm"
          variant="ghost"
          className="w-7 px-0"
          disabled={disabled}
          aria-label="Reschedule task"
          title="Reschedule"
          onClick={(e) => {
            e.stopPropagation();
            onReschedule();
          }}
        >
          <Icon name="clock" size={13} />
        </Button>
      )}
      {actions.map((a) => (
        <Button
          key={a}
          size="sm"
          variant="ghost"
          className="w-7 px-0"
          disabled={disabled}
          aria-label={`${ACTION_LABEL[a].verb} task`}
          title={ACTION_LABEL[a].verb}
          onClick={(e) => {
            e.stopPropagation();
            onAction(a);
          }}
        >
          <Icon name={ACTION_ICON[a]} size={13} />
        </Button>
      ))}
    </div>
  );
}
