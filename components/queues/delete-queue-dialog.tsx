'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icons';
import { toast } from '@/components/ui/toaster';
import { paths } from '@/lib/paths';
import { useDeleteQueue } from '@/lib/query/queue-mutations';
import { plural } from '@/components/tasks/task-actions';

/**
 * Deletes a queue. Asynq refuses while the queue holds tasks; "force" deletes them too, so the
 * dialog says how many, and asks for the queue's name before a forced delete.
 */
export function DeleteQueueButton({ qname, size }: { qname: string; size: number }) {
  const [open, setOpen] = useState(false);
  const [force, setForce] = useState(false);
  const [typed, setTyped] = useState('');
  const router = useRouter();
  const m = useDeleteQueue(qname);
  const close = () => {
    setOpen(false);
    setForce(false);
    setTyped('');
    m.reset();
  };
  const blocked = size > 0 && (!force || typed !== qname);
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)}>
        <Icon name="trash" size={13} />
        Delete queue
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={`Delete queue “${qname}”?`}
        footer={
          <>
            <Button onClick={close}>Cancel</Button>
            <Button
              variant="danger"
              disabled={blocked || m.isPending}
              onClick={() =>
                m.mutate(force, {
                  onSuccess: () => {
                    toast(`Deleted queue ${qname}`, 'success');
                    router.push(paths.overview());
                  },
                })
              }
            >
              {m.isPending ? 'Deleting…' : size > 0 ? `Delete queue and ${plural(size, 'task')}` : 'Delete queue'}
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-3">
          <p>
            {size === 0
              ? 'The queue is empty. Its counters and history go with it.'
              : `The queue still holds ${plural(size, 'task')}. Asynq refuses to delete a queue that is not empty unless forced.`}
          </p>
          {size > 0 && (
            <>
              <label className="flex items-center gap-2 text-fg">
                <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} className="accent-[var(--danger)]" />
                Force: delete the {plural(size, 'task')} too
              </label>
              {force && (
                <label className="flex flex-col gap-1 text-xs">
                  Type the queue name to confirm
                  <input
                    value={typed}
                    onChange={(e) => setTyped(e.target.value)}
                    className="h-8 rounded-md border border-line-strong bg-bg px-2 font-mono text-[13px] text-fg"
                    aria-label="Queue name"
                  />
                </label>
              )}
            </>
          )}
          {m.error && <p role="alert" className="text-danger">{m.error.message}</p>}
        </div>
      </Dialog>
    </>
  );
}
