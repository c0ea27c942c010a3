'use client';

import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useDebounced } from '@/components/common/use-debounced';
import { SafeText } from '@/components/ui/safe-text';
import { routingVerdictQuery } from '@/lib/query/routing';
import { parseBatchLines } from './batch-lines';
import { EnqueueVerdict, warnsBeforeEnqueue } from './enqueue-verdict';

/** At most this many distinct (queue, type) pairs are checked; a batch rarely has more. */
const MAX_PAIRS = 20;

interface Pair { queue: string; type: string; lines: number[] }

function pairsOf(text: string, defaultQueue: string): { pairs: Pair[]; more: number } {
  const byKey = new Map<string, Pair>();
  for (const l of parseBatchLines(text, defaultQueue)) {
    if (!l.item || l.item.type.trim() === '') continue;
    const queue = l.item.queue ?? defaultQueue;
    const key = JSON.stringify([queue, l.item.type]);
    const p = byKey.get(key) ?? { queue, type: l.item.type, lines: [] };
    p.lines.push(l.line);
    byKey.set(key, p);
  }
  const all = [...byKey.values()];
  return { pairs: all.slice(0, MAX_PAIRS), more: Math.max(0, all.length - MAX_PAIRS) };
}

/**
 * Before a batch is sent: the routing verdict of each distinct (queue, type) in it, shown only
 * where it warns (not_handled, conflict), with the lines it concerns.
 */
export function BatchVerdicts({ text, defaultQueue }: { text: string; defaultQueue: string }) {
  const settled = useDebounced(text, 400);
  const { pairs, more } = useMemo(() => pairsOf(settled, defaultQueue || 'default'), [settled, defaultQueue]);
  const results = useQueries({ queries: pairs.map((p) => routingVerdictQuery(p.queue, p.type)) });
  const warnings = pairs.flatMap((p, i) => {
    const v = results[i]?.data?.verdict;
    return v && warnsBeforeEnqueue(v) ? [{ p, v }] : [];
  });
  if (warnings.length === 0 && more === 0) return null;
  return (
    <div data-testid="batch-routing-warnings" className="flex flex-col gap-3 rounded-lg border border-warning/40 bg-warning-soft px-3 py-2.5">
      {warnings.map(({ p, v }) => (
        <div key={`${p.queue}\n${p.type}`} className="flex flex-col gap-1" data-testid="batch-routing-warning">
          <span className="text-[11px] text-muted">
            {p.lines.length === 1 ? 'Line' : 'Lines'} {p.lines.join(', ')}: <SafeText text={p.type} /> on <SafeText text={p.queue} />
          </span>
          <EnqueueVerdict v={v} testId="batch-verdict" />
        </div>
      ))}
      {more > 0 && <p className="text-[11px] text-subtle">{more} more (queue, type) pairs were not checked.</p>}
    </div>
  );
}
