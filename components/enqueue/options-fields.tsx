'use client';

import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import type { EnqueueDraft, FieldErrors, FieldName } from './enqueue-draft';
import { HeadersEditor } from './headers-editor';

interface Props {
  draft: EnqueueDraft;
  errors: FieldErrors;
  set: (patch: Partial<EnqueueDraft>) => void;
}

/** Every asynq option: TaskID, Unique, MaxRetry, Timeout, Deadline, ProcessAt/ProcessIn, Retention, Group, headers. */
export function OptionsFields({ draft, errors, set }: Props) {
  const text = (name: FieldName, label: string, hint: string, placeholder = '', type = 'text') => (
    <Field id={`opt-${name}`} label={label} hint={hint} error={errors[name]}>
      <Input id={`opt-${name}`} type={type} step={type === 'datetime-local' ? 1 : undefined} placeholder={placeholder}
        value={draft[name] as string} onChange={(e) => set({ [name]: e.target.value })}
        aria-invalid={!!errors[name]} aria-describedby={`opt-${name}-msg`} />
    </Field>
  );
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2 xl:grid-cols-3">
        {text('taskId', 'Task ID', 'Empty: a new random UUID. An ID already used in this queue is refused.', 'random UUID')}
        <Field id="opt-uniqueTtl" label="Unique TTL" error={errors.uniqueTtl}
          hint="One task per queue + type + payload while the lock lives: until this task succeeds or is deleted, or the TTL ends (counted from its process time if scheduled). asynq refuses a TTL under 1 s.">
          <div className="flex items-center gap-2">
            <label className="flex items-center gap-1.5 text-xs">
              <input type="checkbox" checked={draft.unique} onChange={(e) => set({ unique: e.target.checked })} className="accent-[var(--accent)]" />
              Unique
            </label>
            <Input id="opt-uniqueTtl" placeholder="1h" value={draft.uniqueTtl} className={cn('flex-1', !draft.unique && 'opacity-60')}
              onChange={(e) => set({ uniqueTtl: e.target.value, unique: draft.unique || e.target.value.trim() !== '' })} aria-invalid={!!errors.uniqueTtl} aria-describedby="opt-uniqueTtl-msg" />
          </div>
        </Field>
        {text('maxRetry', 'Max retry', 'Default 25. Below 0 counts as 0.', '25')}
        {text('timeout', 'Timeout', 'Default 30m when neither a timeout nor a deadline is set.', '30m')}
        {text('deadline', 'Deadline', 'Your local time; sent as UTC.', '', 'datetime-local')}
        {text('retention', 'Retention', 'Kept as completed this long after it succeeds.', '24h')}
        {text('group', 'Group', 'Aggregated with its group; processed by the group’s aggregator.', 'tenant-42')}
        <div className="flex flex-col gap-1">
          <span className="text-xs font-medium text-muted">Process</span>
          <div role="radiogroup" aria-label="Process" className="inline-flex w-fit rounded-md border border-line-strong p-0.5">
            {(['now', 'at', 'in'] as const).map((m) => (
              <button key={m} type="button" role="radio" aria-checked={draft.processMode === m} onClick={() => set({ processMode: m })}
                className={cn('h-6 rounded px-2 text-xs whitespace-nowrap', draft.processMode === m ? 'bg-accent text-accent-fg' : 'text-muted hover:text-fg')}>
                {m === 'now' ? 'Now' : m === 'at' ? 'At a time' : 'After a delay'}
              </button>
            ))}
          </div>
          {draft.processMode === 'now' && <p className="text-[11px] text-subtle">Pending at once, or aggregating with a group.</p>}
          {draft.processMode === 'at' && <div className="mt-1">{text('processAt', 'Process at (ProcessAt)', 'Your local time; a future time schedules the task.', '', 'datetime-local')}</div>}
          {draft.processMode === 'in' && <div className="mt-1">{text('processIn', 'Process in (ProcessIn)', 'Counted from when the server receives it.', '10m')}</div>}
        </div>
      </div>
      <HeadersEditor rows={draft.headers} onChange={(headers) => set({ headers })} error={errors.headers} />
    </div>
  );
}
