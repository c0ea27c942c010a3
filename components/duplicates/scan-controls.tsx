'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { TaskStateDto } from '@/lib/contract/tasks';
import { TASK_STATES } from '@/lib/url-state';
import { cn } from '@/lib/utils';

interface Props {
  /** The states of the scan shown (or to start). */
  states: TaskStateDto[];
  scanning: boolean;
  /** A scan is shown (running or finished). */
  started: boolean;
  busy: boolean;
  onScan: (states: TaskStateDto[]) => void;
  onCancel: () => void;
  onRescan: () => void;
}

/**
 * Which states to look in, and the scan's controls. Ticking boxes only edits a draft: each
 * scan runs on the server, so one starts only when asked.
 */
export function ScanControls({ states, scanning, started, busy, onScan, onCancel, onRescan }: Props) {
  const [draft, setDraft] = useState<TaskStateDto[]>(states);
  const changed = draft.length !== states.length || draft.some((s) => !states.includes(s));
  const toggle = (s: TaskStateDto) => setDraft((d) => (d.includes(s) ? d.filter((x) => x !== s) : TASK_STATES.filter((x) => x === s || d.includes(x))));
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-line px-3 py-2.5">
      <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <legend className="float-left mr-1 text-xs font-medium text-muted">Look in</legend>
        {TASK_STATES.map((s) => (
          <label key={s} className={cn('flex items-center gap-1.5 text-[13px]', !draft.includes(s) && 'text-muted')}>
            <input type="checkbox" checked={draft.includes(s)} onChange={() => toggle(s)} className="accent-[var(--accent)]" />
            {s}
          </label>
        ))}
      </fieldset>
      <div className="ml-auto flex items-center gap-2">
        {draft.includes('active') && <span className="text-xs text-warning">Active tasks cannot be deleted while they run.</span>}
        {scanning ? (
          <Button onClick={onCancel} disabled={busy}>
            Cancel scan
          </Button>
        ) : started && !changed ? (
          <Button onClick={onRescan} disabled={busy}>
            Rescan
          </Button>
        ) : (
          <Button variant="primary" onClick={() => onScan(draft)} disabled={busy || draft.length === 0}>
            Find duplicates
          </Button>
        )}
      </div>
    </div>
  );
}
