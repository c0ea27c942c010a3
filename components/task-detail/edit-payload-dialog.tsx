'use client';

import { useState } from 'react';
import { draftFromPayload, encodePayload, type PayloadDraft } from '@/components/payload/payload-draft';
import { PayloadEditor } from '@/components/payload/payload-editor';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toaster';
import type { TaskDto } from '@/lib/contract/tasks';
import { useUpdatePayload } from '@/lib/query/enqueue';

/**
 * Replaces a scheduled task's payload (asynq changes it in no other state). Everything else
 * stays, the unique key included: it was computed from the old payload when it was enqueued.
 */
export function EditPayloadDialog({ task, onClose }: { task: TaskDto; onClose: () => void }) {
  const [draft, setDraft] = useState<PayloadDraft>(() => {
    const d = draftFromPayload(task.payload, task.payloadEncoding, task.uniqueKey);
    return d.mode === 'none' ? { ...d, mode: 'text' } : d;
  });
  const m = useUpdatePayload(task.queue, task.id);
  const encoded = encodePayload(draft);
  const save = () => {
    if (!encoded.ok) return;
    m.mutate(
      { payload: encoded.payload ?? '', payloadEncoding: encoded.encoding },
      { onSuccess: () => { toast(`Updated the payload of ${task.id}`, 'success'); onClose(); } },
    );
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title="Edit payload"
      className="w-[min(44rem,calc(100vw-2rem))]"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={!encoded.ok || m.isPending} onClick={save}>
            {m.isPending ? 'Saving…' : 'Save payload'}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-2 text-fg">
        {task.payloadTruncated && <p className="text-xs text-warning">This payload is larger than the 1 MiB the page loaded; saving replaces all of it with what is here.</p>}
        <PayloadEditor id="edit-payload" draft={draft} onChange={setDraft} allowNil={false} />
        {task.uniqueKey && <p className="text-xs text-muted">The unique lock keeps its key, computed from the old payload.</p>}
        {m.error && <p role="alert" className="text-xs text-danger">{m.error.message}</p>}
      </div>
    </Dialog>
  );
}
