'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { RoutingVerdictDto, RoutingVerdictsDto } from '@/lib/contract/routing-verdicts';
import { routingVerdictsQuery } from '@/lib/query/routing';
import { usePollInterval } from '@/lib/query/use-poll-interval';

const fingerprint = (d: RoutingVerdictsDto): string => JSON.stringify(d.verdicts);

export const verdictKey = (queue: string, taskType: string): string => `${queue}\n${taskType}`;

/**
 * The fleet's verdicts (of one queue, or of one type, or all), polled, with a lookup by
 * (queue, type). A surface that has no verdict for a pair shows none rather than guessing.
 */
export function useVerdicts(queue: string | null = null, type: string | null = null) {
  const poll = usePollInterval<RoutingVerdictsDto>({ fingerprint });
  const query = useQuery({ ...routingVerdictsQuery(queue, type), ...poll });
  const byPair = useMemo(() => new Map((query.data?.verdicts ?? []).map((v) => [verdictKey(v.queue, v.taskType), v])), [query.data]);
  return { query, get: (q: string, t: string): RoutingVerdictDto | undefined => byPair.get(verdictKey(q, t)) };
}

export type Verdicts = ReturnType<typeof useVerdicts>;
