'use client';

import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@/components/common/page-header';
import { useSearchState } from '@/components/common/use-search-state';
import { Tabs } from '@/components/ui/tabs';
import { useViewerOnly } from '@/lib/query/auth';
import { healthQuery } from '@/lib/query/health';
import { parseEnqueueView } from '@/lib/url-state';
import { BatchEnqueue } from './batch-enqueue';
import { CloneForm } from './clone-form';
import { newDraft } from './enqueue-draft';
import { EnqueueForm } from './enqueue-form';

/** Enqueue by hand: one task with every option and a pre-check, or a batch of JSON lines. */
export function EnqueueView() {
  const [view, setView, href] = useSearchState(parseEnqueueView);
  // undefined while unknown: the buttons wait, but nothing claims the server is read-only.
  // A viewer may pre-check but not enqueue, as on a read-only server.
  const { data: health } = useQuery({ ...healthQuery(), refetchInterval: false });
  const viewer = useViewerOnly();
  const readOnly = viewer || health?.readOnly;
  return (
    <>
      <PageHeader
        title="Enqueue"
        meta={<span>Written exactly as a Go client writes it; the pre-check shows the unique lock, the task ID and whether the fleet handles the type before you press the button.</span>}
      />
      <div className="border-b border-line">
        <Tabs
          label="Enqueue mode"
          active={view.tab}
          onSelect={(k) => setView({ tab: k === 'batch' ? 'batch' : null, clone: null })}
          items={[
            { key: 'one', label: 'One task', href: href({ tab: null }) },
            { key: 'batch', label: 'Batch (JSON lines)', href: href({ tab: 'batch', clone: null }) },
          ]}
        />
      </div>
      {view.tab === 'batch' ? (
        <BatchEnqueue defaultQueue={view.queue} readOnly={readOnly} />
      ) : view.clone ? (
        <CloneForm queue={view.queue} taskId={view.clone} readOnly={readOnly} />
      ) : (
        <EnqueueForm key={view.queue} initial={newDraft(view.queue)} readOnly={readOnly} />
      )}
    </>
  );
}
