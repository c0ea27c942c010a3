'use client';

import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { archiveForecastQuery } from '@/lib/query/archive-forecast';
import { plural } from './task-actions';

/**
 * Before an archive: what asynq's archive limit (the newest 9,999 per queue, for 90 days) will
 * delete in each queue it adds to, and the typed confirmation that many deletions call for.
 * `adding` maps each queue to the tasks about to be archived there; null when not archiving.
 * While the figures load the action waits; if they cannot be read it goes ahead as it always did.
 */
export function useArchiveLimit(adding: Record<string, number> | null) {
  const entries = Object.entries(adding ?? {}).filter(([, n]) => n > 0);
  const results = useQueries({ queries: entries.map(([q, n]) => ({ ...archiveForecastQuery(q, n), retry: false })) });
  const [typed, setTyped] = useState('');
  const atRisk = results.flatMap((r) => (r.data && r.data.deleted > 0 ? [r.data] : []));
  const expected = atRisk.map((f) => f.queue).join(', ');
  const loading = results.some((r) => r.isPending);
  const failed = results.find((r) => r.isError)?.error ?? null;
  return { atRisk, loading, failed, typed, setTyped, expected, blocked: loading || (atRisk.length > 0 && typed !== expected) };
}

export type ArchiveLimit = ReturnType<typeof useArchiveLimit>;

export function ArchiveLimitWarning({ check }: { check: ArchiveLimit }) {
  if (check.loading) return <p className="text-subtle">Checking asynq&apos;s archive limit…</p>;
  if (check.failed) return <p className="text-subtle">Could not check asynq&apos;s archive limit ({check.failed.message}); archived tasks past it will be deleted.</p>;
  if (check.atRisk.length === 0) return null;
  const total = check.atRisk.reduce((n, f) => n + f.deleted, 0);
  return (
    <div role="alert" className="flex flex-col gap-2 rounded-md border border-danger/40 bg-danger/5 p-2.5">
      <p className="text-fg">
        <strong className="text-danger">{plural(total, 'archived task')} will be deleted.</strong> asynq keeps at most 9,999
        archived tasks per queue, for 90 days, and deletes the rest whenever a task is archived.
      </p>
      <ul className="list-disc pl-5">
        {check.atRisk.map((f) => (
          <li key={f.queue}>
            <strong className="break-all text-fg">{f.queue}</strong>: {f.archived.toLocaleString('en-US')} archived now;{' '}
            {[
              f.byAge > 0 && `${plural(f.byAge, 'task')} archived 90 or more days ago`,
              f.bySize > 0 && `the oldest ${plural(f.bySize, 'task')} past the newest 9,999`,
            ].filter(Boolean).join(' and ')}
            {f.ofAdded > 0 && `, ${f.ofAdded.toLocaleString('en-US')} of them among the tasks archived now`}.
          </li>
        ))}
      </ul>
      <Field id="archive-limit-confirm" label={<>Type <code className="font-mono text-fg">{check.expected}</code> to confirm</>}>
        <Input id="archive-limit-confirm" value={check.typed} onChange={(e) => check.setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
      </Field>
    </div>
  );
}
