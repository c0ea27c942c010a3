'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Icon } from '@/components/ui/icons';
import { Input, Textarea } from '@/components/ui/input';
import { Panel } from '@/components/ui/panel';
import { useEnqueueBatch, useEnqueueReplacingArchived } from '@/lib/query/enqueue';
import { parseBatchLines } from './batch-lines';
import { BatchResults } from './batch-results';
import { BatchVerdicts } from './batch-verdicts';
import { sendBatch, type LineResult } from './batch-send';
import { isApiError } from '@/lib/query/fetcher';

const EXAMPLE = [
  '{"type":"email:welcome","payload":{"userId":42}}',
  '{"queue":"critical","type":"report:daily","payload":"plain text","options":{"maxRetry":3,"processInSeconds":60}}',
].join('\n');

/**
 * Many tasks at once from JSON lines (pasted or uploaded), with a result per line. The batch
 * is the console's own (no released asynq has one): each line is enqueued as asynq's client
 * enqueues one task, and unique and group tasks are refused per line, since one pipeline cannot
 * take a lock per task.
 */
export function BatchEnqueue({ defaultQueue, readOnly }: { defaultQueue: string; readOnly: boolean | undefined }) {
  const [text, setText] = useState('');
  const [queue, setQueue] = useState(defaultQueue);
  const [results, setResults] = useState<LineResult[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [replacing, setReplacing] = useState<number | null>(null);
  const m = useEnqueueBatch();
  const r = useEnqueueReplacingArchived();
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '').length;
  // A line refused by an archived task's ID, enqueued again through the single enqueue's one
  // route (delete-the-archived-task-and-enqueue: one script, audited); its row then shows the
  // new task, or why the task in the way changed meanwhile.
  const replace = async (line: number) => {
    const row = results?.find((x) => x.line === line);
    if (!row || row.ok || !row.existing || !row.item) return;
    const { queue: _q, ...body } = row.item;
    const at = row.existing;
    let next: LineResult;
    setReplacing(line);
    try {
      const t = await r.mutateAsync({ queue: at.queue, body: { ...body, archivedId: at.id } });
      next = t ? { line, ok: true, id: t.id, queue: t.queue, state: t.state, replacedArchived: true } : row;
    } catch (err) {
      next = { line, ok: false, code: isApiError(err) ? err.code : 'error', message: err instanceof Error ? err.message : String(err), existing: { ...at, archived: null } };
    }
    setReplacing(null);
    setResults((rs) => rs && rs.map((x) => (x.line === line ? next : x)));
  };
  const run = async () => {
    setFailure(null);
    try {
      setResults(await sendBatch(parseBatchLines(text, queue || 'default'), (items) => m.mutateAsync(items)));
    } catch (err) {
      setFailure(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div className="flex flex-col gap-4">
      <Panel title="JSON lines" actions={
        <label className="inline-flex h-7 cursor-pointer items-center gap-1 rounded-md border border-line-strong bg-panel px-2 text-xs font-medium hover:bg-hover">
          <Icon name="upload" size={12} /> Upload .jsonl
          <input type="file" accept=".jsonl,.ndjson,.json,.txt,application/x-ndjson" aria-label="Upload JSON lines" className="sr-only"
            onChange={async (e) => { const f = e.target.files?.[0]; if (f) setText(await f.text()); e.target.value = ''; }} />
        </label>
      }>
        <div className="flex flex-col gap-3">
          <Textarea aria-label="JSON lines" rows={10} placeholder={EXAMPLE} value={text} onChange={(e) => setText(e.target.value)} />
          <p className="text-[11px] text-subtle">
            One task per line: {'{'}&quot;type&quot;, &quot;payload&quot;?, &quot;payloadEncoding&quot;?, &quot;queue&quot;?, &quot;options&quot;?{'}'} as the enqueue API takes it; a
            payload that is not a string is sent as its JSON. Up to 1,000 lines go in one request. Each line is enqueued as asynq&apos;s client enqueues one task; unique and group tasks are refused per line (the batch is this console&apos;s own, not an asynq API).
          </p>
          <div className="flex flex-wrap items-end gap-3">
            <Field id="batch-queue" label="Queue for lines without one" className="w-64">
              <Input id="batch-queue" value={queue} onChange={(e) => setQueue(e.target.value)} />
            </Field>
            <Button variant="primary" className="h-9" disabled={readOnly !== false || lines === 0 || m.isPending} onClick={() => void run()}>
              {m.isPending ? 'Enqueueing…' : `Enqueue ${lines.toLocaleString('en-US')} ${lines === 1 ? 'line' : 'lines'}`}
            </Button>
          </div>
          <BatchVerdicts text={text} defaultQueue={queue} />
          {failure && <p role="alert" className="text-xs text-danger">{failure}</p>}
        </div>
      </Panel>
      {results && (
        <Panel title="Results" flush>
          <BatchResults results={results} onReplace={readOnly === false ? (line) => void replace(line) : undefined} replacing={replacing} />
        </Panel>
      )}
    </div>
  );
}
