'use client';

import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { PageHeader } from '@/components/common/page-header';
import { QueueFilter } from '@/components/failures/queue-filter';
import { useSearchState } from '@/components/common/use-search-state';
import { Panel } from '@/components/ui/panel';
import type { TaskTypesDto } from '@/lib/contract/triage';
import { isApiError } from '@/lib/query/fetcher';
import { routingExplainQuery, routingPatternsQuery, taskTypesQuery } from '@/lib/query/routing';
import { useScanPollInterval } from '@/lib/query/triage';
import { parseRoutingView } from '@/lib/url-state';
import { useVerdicts } from '@/components/verdict/use-verdicts';
import { parsePatterns, type ParsedPatterns } from './parse-patterns';
import { PatternsEditor } from './patterns-editor';
import { RoutesPanel } from './routes-panel';
import { byType } from './type-rows';
import { usePatterns } from './use-patterns';
import { VerdictsPanel } from './verdicts-panel';

const censusFingerprint = (d: TaskTypesDto): string => JSON.stringify([d.complete, d.types]);

/** The server's refusal of a pattern set (`field: "patterns.N"`), pointed at its line. */
function refusal(err: unknown, parsed: ParsedPatterns): string | null {
  if (!isApiError(err) || err.status !== 400) return null;
  const field = err.details.field;
  const i = typeof field === 'string' ? /^patterns\.(\d+)$/.exec(field)?.[1] : undefined;
  const line = i === undefined ? null : parsed.lines[Number(i)];
  return line ? `Line ${line}: ${err.message}` : err.message;
}

/**
 * Routing: first the fleet's verdict for every (queue, task type), the same one every page
 * shows; then a pattern tester, a what-if for one ServeMux (pasted, or the routing file's
 * patterns) against every task type in Redis, answered by the core's own ServeMux: exact,
 * prefix (and which pattern), or none.
 */
export function RoutingView() {
  const [view, setView, href] = useSearchState(parseRoutingView);
  const verdicts = useVerdicts(view.queue || null).query;
  const file = useQuery(routingPatternsQuery());
  const writeUrl = useCallback((text: string) => setView({ patterns: text || null }, 'replace'), [setView]);
  const patterns = usePatterns({ fromUrl: view.patterns, file: file.data ?? (file.isError ? null : undefined), writeUrl });
  const live = useMemo(() => parsePatterns(patterns.text), [patterns.text]);
  const parsed = useMemo(() => parsePatterns(patterns.settledText ?? ''), [patterns.settledText]);
  const [poll, track] = useScanPollInterval(censusFingerprint);
  const census = useQuery({ ...taskTypesQuery(view.queue || null), ...poll });
  track(census.data);
  const rows = useMemo(() => byType(census.data?.types ?? []), [census.data]);
  const types = useMemo(() => rows.map((r) => r.taskType), [rows]);
  const ready = parsed.patterns.length > 0 && parsed.problem === null && types.length > 0;
  const explain = useQuery({ ...routingExplainQuery(parsed.patterns, types), enabled: ready });
  const refused = explain.isError ? refusal(explain.error, parsed) : null;
  const routed = useMemo(() => {
    const routes = explain.data?.routes;
    if (!ready || !routes) return null;
    const byName = new Map(routes.map((r) => [r.taskType, r]));
    return rows.flatMap((row) => {
      const route = byName.get(row.taskType);
      return route ? [{ row, route }] : [];
    });
  }, [explain.data, ready, rows]);
  let blocked: { title: string; text: string; error?: unknown } | null = null;
  if (parsed.problem || refused) blocked = { title: 'Fix the patterns to see the routes', text: parsed.problem ?? refused ?? '' };
  else if (explain.isError) blocked = { title: 'Could not explain the routes', text: '', error: explain.error };
  else if (patterns.settledText !== null && parsed.patterns.length === 0) {
    blocked = { title: 'Paste your patterns', text: `Enter the patterns your workers register to see where each of the ${types.length} task types in Redis goes.` };
  }
  return (
    <>
      <PageHeader
        title="Routing"
        meta={<span>Whether a server of the fleet handles each task type, from evidence first; and a tester for a pattern set</span>}
        actions={<QueueFilter value={view.queue} onChange={(q) => setView({ queue: q || null })} />}
      />
      <VerdictsPanel
        data={verdicts.data}
        error={verdicts.error}
        refetch={() => void verdicts.refetch()}
        filter={view.verdict}
        focus={view.type}
        filterHref={(f) => href({ verdict: f === 'all' ? null : f })}
        onFilter={(f) => setView({ verdict: f === 'all' ? null : f }, 'replace')}
      />
      <section aria-labelledby="pattern-tester" className="flex flex-col gap-1">
        <h2 id="pattern-tester" className="text-sm font-semibold">Test a pattern set</h2>
        <p className="text-xs text-muted">
          A what-if for one server: the handler pattern its ServeMux would pick for each task type in Redis. What the fleet really does is the
          verdict above.
        </p>
      </section>
      <div className="grid items-start gap-4 lg:grid-cols-[22rem_minmax(0,1fr)]">
        <Panel title="Patterns">
          <PatternsEditor
            text={patterns.text}
            origin={patterns.origin}
            parsed={live}
            file={file.data ?? (file.isError ? null : undefined)}
            error={patterns.text === patterns.settledText ? refused : null}
            onChange={patterns.type}
            onLoadFile={patterns.loadFile}
          />
        </Panel>
        <RoutesPanel
          census={{ data: census.data, error: census.error, refetch: () => void census.refetch() }}
          typeCount={types.length}
          routed={routed}
          blocked={blocked}
          filter={view.show}
          filterHref={(f) => href({ show: f === 'all' ? null : f })}
          onFilter={(f) => setView({ show: f === 'all' ? null : f }, 'replace')}
        />
      </div>
    </>
  );
}
