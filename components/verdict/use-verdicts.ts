'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { RoutingVerdictDto, RoutingVerdictsDto } from '@/lib/contract/routing-verdicts';
import { routingVerdictQuery, routingVerdictsQuery } from '@/lib/query/routing';
import { useScanPollInterval } from '@/lib/query/triage';

const fingerprint = (d: RoutingVerdictsDto): string => JSON.stringify([d.complete, d.verdicts, d.problems]);

export const verdictKey = (queue: string, taskType: string): string => `${queue}\n${taskType}`;

/**
 * The fleet's verdicts (of one queue, or all), polled (quickly while the scans behind the
 * evidence have not finished once), with a lookup by (queue, type). A surface that has no
 * verdict for a pair says so rather than guessing.
 */
export function useVerdicts(queue: string | null = null) {
  const [poll, track] = useScanPollInterval(fingerprint);
  const query = useQuery({ ...routingVerdictsQuery(queue), ...poll });
  track(query.data);
  const byPair = useMemo(() => new Map((query.data?.verdicts ?? []).map((v) => [verdictKey(v.queue, v.taskType), v])), [query.data]);
  return { query, get: (q: string, t: string): RoutingVerdictDto | undefined => byPair.get(verdictKey(q, t)) };
}

export type Verdicts = ReturnType<typeof useVerdicts>;

/** The verdict of one (queue, type), even of a type no task has yet. */
export function useVerdict(queue: string, type: string) {
  const [poll, track] = useScanPollInterval(fingerprint);
  const query = useQuery({ ...routingVerdictQuery(queue, type), ...poll });
  track(query.data);
  return { verdict: query.data?.verdict ?? undefined, failed: query.isError };
}
