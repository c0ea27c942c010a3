'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { buttonClass, Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { Panel } from '@/components/ui/panel';
import type { TaskDto } from '@/lib/contract/tasks';
import { apiPaths } from '@/lib/paths';
import { taskPayloadQuery } from '@/lib/query/tasks';
import { formatBytes } from '@/lib/utils';
import { utf8OrNull } from './bytes';
import { PayloadView, toContent, type PayloadContent } from './payload-view';

/**
 * A task's payload. The detail response carries at most 1 MiB of it; a bigger one says so and
 * loads the rest only when asked (or downloads it), so opening a 10 MB task stays instant.
 */
export function TaskPayloadPanel({ task }: { task: TaskDto }) {
  const [wantFull, setWantFull] = useState(false);
  const full = useQuery({ ...taskPayloadQuery(task.queue, task.id), enabled: wantFull });
  const content = useMemo<PayloadContent>(() => {
    if (full.data) {
      const text = utf8OrNull(full.data);
      return text === null ? { kind: 'binary', bytes: full.data } : { kind: 'text', text };
    }
    return toContent(task.payload, task.payloadEncoding);
  }, [full.data, task.payload, task.payloadEncoding]);
  const shownBytes = useMemo(
    () => (task.payloadEncoding === 'base64' ? Math.floor((task.payload.length * 3) / 4) : new TextEncoder().encode(task.payload).length),
    [task.payload, task.payloadEncoding],
  );
  const download = (
    <a href={apiPaths.taskPayload(task.queue, task.id)} download className={buttonClass('ghost', 'sm')}>
      <Icon name="download" size={13} />
      Download
    </a>
  );
  return (
    <Panel
      flush
      title={
        <span>
          Payload <span className="font-normal text-muted">· {formatBytes(task.payloadSize)}{task.payloadEncoding === 'base64' ? ' · binary' : ''}</span>
        </span>
      }
    >
      {task.payloadTruncated && !full.data && (
        <div role="status" className="flex flex-wrap items-center gap-2 border-b border-line bg-warning-soft px-3 py-2 text-xs text-warning">
          <Icon name="alert" size={13} />
          Large payload: showing the first {formatBytes(shownBytes)} of {formatBytes(task.payloadSize)}.
          <Button size="sm" onClick={() => setWantFull(true)} disabled={full.isFetching}>
            {full.isFetching ? 'Loading…' : `Load all ${formatBytes(task.payloadSize)}`}
          </Button>
          {full.error && <span className="text-danger">{full.error.message}</span>}
        </div>
      )}
      {task.payloadSize === 0 ? <p className="p-3 text-xs text-muted">Empty payload.</p> : <PayloadView content={content} extra={download} />}
    </Panel>
  );
}
