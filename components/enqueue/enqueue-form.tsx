'use client';

import { useState, type FormEvent } from 'react';
import { PayloadEditor } from '@/components/payload/payload-editor';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { Panel } from '@/components/ui/panel';
import { isApiError } from '@/lib/query/fetcher';
import { useEnqueue, useEnqueueReplacingArchived } from '@/lib/query/enqueue';
import { fieldOf, toEnqueueRequest, type EnqueueDraft, type FieldErrors } from './enqueue-draft';
import { EnqueueOutcome } from './enqueue-outcome';
import { OptionsFields } from './options-fields';
import { PrecheckPanel } from './precheck-panel';
import { QueueTypeFields } from './queue-type-fields';

/** "options.maxRetry: maxRetry must be an integer" → "maxRetry must be an integer". */
const withoutField = (message: string, field: unknown) =>
  typeof field === 'string' && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;

/**
 * One task, every option, checked before it is sent (the pre-check) and explained after (the
 * outcome). A refusal that names an option is shown next to that option, in asynq's words.
 */
export function EnqueueForm({ initial, readOnly }: { initial: EnqueueDraft; readOnly: boolean | undefined }) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const m = useEnqueue();
  // The refused enqueue again, with the archived task in its way deleted in the same step.
  const r = useEnqueueReplacingArchived();
  const replace = (archivedId: string) => {
    if (m.variables) r.mutate({ queue: m.variables.queue, body: { ...m.variables.body, archivedId } });
  };
  const set = (patch: Partial<EnqueueDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !(k in patch) && k !== 'form')));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const built = toEnqueueRequest(draft);
    if (!built.ok) return setErrors(built.errors);
    setErrors({});
    r.reset();
    m.mutate(built, {
      onError: (err) => {
        if (isApiError(err) && err.code === 'invalid_argument') setErrors({ [fieldOf(err.details.field)]: withoutField(err.message, err.details.field) });
      },
    });
  };
  const scheduled = draft.processMode !== 'now';
  const fieldError = isApiError(m.error) && m.error.code === 'invalid_argument' && !errors.form;
  return (
    <form onSubmit={submit} noValidate className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_360px]">
      <div className="flex min-w-0 flex-col gap-4">
        <Panel title="Task">
          <div className="flex flex-col gap-4">
            <QueueTypeFields draft={draft} errors={errors} set={set} />
            <div className="flex flex-col gap-1">
              <span className="text-xs font-medium text-muted">Payload</span>
              <PayloadEditor id="f-payload" draft={draft.payload} onChange={(payload) => set({ payload })} serverError={errors.payload} />
            </div>
          </div>
        </Panel>
        <Panel title="Options">
          <OptionsFields draft={draft} errors={errors} set={set} />
        </Panel>
      </div>
      <div className="flex min-w-0 flex-col gap-3 lg:sticky lg:top-4">
        <PrecheckPanel draft={draft} />
        {Object.keys(errors).length > 0 && !m.isPending && (
          <p role="alert" className="rounded-lg border border-danger/40 bg-danger-soft px-3 py-2 text-[13px] text-danger">
            {errors.form ?? 'Not enqueued: fix the field marked in red.'}
          </p>
        )}
        {!fieldError && (r.isIdle || r.isPending ? (
          <EnqueueOutcome queue={m.variables?.queue ?? draft.queue} data={m.data} error={m.error} at={m.submittedAt}
            onReplace={readOnly === false ? replace : undefined} replacing={r.isPending} />
        ) : (
          <EnqueueOutcome queue={r.variables?.queue ?? draft.queue} data={r.data} error={r.error} at={r.submittedAt} onReplace={undefined} replacing={r.isPending} />
        ))}
        <Button type="submit" variant="primary" disabled={readOnly !== false || m.isPending} className="h-9">
          <Icon name={scheduled ? 'clock' : 'plus'} size={13} />
          {m.isPending ? 'Enqueueing…' : scheduled ? 'Schedule' : 'Enqueue'}
        </Button>
        {readOnly && <p className="text-xs text-warning">Read only (a read-only server, or the viewer role): the pre-check works, enqueueing does not.</p>}
      </div>
    </form>
  );
}
