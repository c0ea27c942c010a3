'use client';

import { useState } from 'react';
import { buttonClass, Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import type { TaskDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
import { EditPayloadDialog } from './edit-payload-dialog';

/** Clone into the enqueue form; edit the payload while the task is scheduled. */
export function TaskReuseActions({ task }: { task: TaskDto }) {
  const [editing, setEditing] = useState(false);
  if (task.problem) return null;
  return (
    <>
      {task.state === 'scheduled' && (
        <Button onClick={() => setEditing(true)}>
          <Icon name="edit" size={13} /> Edit payload
        </Button>
      )}
      <Link href={paths.enqueue({ queue: task.queue, clone: task.id })} className={buttonClass()}>
        <Icon name="copy" size={13} /> Clone
      </Link>
      {editing && <EditPayloadDialog task={task} onClose={() => setEditing(false)} />}
    </>
  );
}
