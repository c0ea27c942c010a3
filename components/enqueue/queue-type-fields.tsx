'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { TaskTypesDto } from '@/lib/contract/triage';
import { queueListQuery } from '@/lib/query/queues';
import { taskTypesQuery } from '@/lib/query/routing';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { formatNumber } from '@/lib/utils';
import type { EnqueueDraft, FieldErrors } from './enqueue-draft';

interface Props {
  draft: EnqueueDraft;
  errors: FieldErrors;
  set: (patch: Partial<EnqueueDraft>) => void;
}

const isComplete = (d: TaskTypesDto) => d.complete;

/** Types seen in `queue` first (most tasks first), then those seen anywhere else. */
function suggestTypes(census: TaskTypesDto | undefined, queue: string | undefined): string[] {
  const rows = [...(census?.types ?? [])].sort((a, b) => Number(b.queue === queue) - Number(a.queue === queue) || b.total - a.total);
  return [...new Set(rows.map((r) => r.taskType).filter(Boolean))];
}

/** Queue (an existing one, or a new name) and type (suggested from the types seen in Redis). */
export function QueueTypeFields({ draft, errors, set }: Props) {
  const { data: list } = useQuery(queueListQuery());
  const existing = list?.queues.find((q) => q.queue === draft.queue);
  // The census is one shared server-side scan; it is read again until it completes.
  const poll = usePollInterval<TaskTypesDto>({ stopWhen: isComplete, progressMs: 2000 });
  const { data: census } = useQuery({ ...taskTypesQuery(), ...poll });
  const types = useMemo(() => suggestTypes(census, existing?.queue), [census, existing?.queue]);
  const queueHint = !list || draft.queue === ''
    ? 'Existing queues are suggested.'
    : existing
      ? `Existing queue · ${formatNumber(existing.size)} tasks${existing.paused ? ' · paused: tasks wait until it is resumed' : ''}`
      : 'A new queue: asynq registers it with this task. Servers process it only if configured to.';
  return (
    <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
      <Field id="f-queue" label="Queue" hint={queueHint} error={errors.queue}>
        <Input id="f-queue" list="f-queue-list" autoComplete="off" value={draft.queue} onChange={(e) => set({ queue: e.target.value })}
          aria-invalid={!!errors.queue} aria-describedby="f-queue-msg" />
        <datalist id="f-queue-list">
          {list?.queues.map((q) => <option key={q.queue} value={q.queue} />)}
        </datalist>
      </Field>
      <Field id="f-type" label="Type" error={errors.type}
        hint={types.length ? `${types.length} types seen in Redis are suggested${existing ? ', this queue’s first' : ''}.` : 'Handlers are routed on this, e.g. email:welcome.'}>
        <Input id="f-type" list="f-type-list" autoComplete="off" placeholder="email:welcome" value={draft.type} onChange={(e) => set({ type: e.target.value })}
          aria-invalid={!!errors.type} aria-describedby="f-type-msg" className="font-mono text-xs" />
        <datalist id="f-type-list">
          {types.map((t) => <option key={t} value={t} />)}
        </datalist>
      </Field>
    </div>
  );
}
