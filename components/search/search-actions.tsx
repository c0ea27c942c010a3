'use client';

import { ACTION_LABEL } from '@/components/tasks/task-actions';
import { Button } from '@/components/ui/button';
import type { QueryPairs } from '@/lib/paths';
import { actsOnEverything } from '@/lib/query/search';
import { BULK_ACTIONS } from '@/lib/contract/task-actions';
import { ActDialog } from './act-dialog';
import { statesFor } from './act-states';
import { useActFlow } from './use-act-flow';

/** "Act on what you found": run, archive or delete every match, after counting them and asking. */
export function SearchActions({ filter }: { filter: QueryPairs }) {
  const { flow, begin, confirm, stop, close } = useActFlow(filter);
  return (
    <div role="region" aria-label="Act on matches" className="flex flex-wrap items-center gap-2 border-b border-line bg-bg-subtle px-3 py-1.5 text-xs text-muted">
      <span>Every match, not just those shown:</span>
      {BULK_ACTIONS.map((a) => {
        const states = statesFor(a, filter);
        return (
          <Button
            key={a}
            size="sm"
            disabled={states.length === 0 || flow.step !== 'idle'}
            title={states.length === 0 ? `No chosen state allows ${a}` : `${ACTION_LABEL[a].verb} matching ${states.join(', ')} tasks`}
            onClick={() => begin(a)}
          >
            <span className={a === 'delete' ? 'text-danger' : undefined}>{ACTION_LABEL[a].verb} all…</span>
          </Button>
        );
      })}
      <ActDialog flow={flow} states={flow.step === 'idle' ? [] : statesFor(flow.action, filter)} everything={actsOnEverything(filter)} onConfirm={confirm} onStop={stop} onClose={close} />
    </div>
  );
}
