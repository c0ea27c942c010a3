'use client';

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Link } from '@/components/ui/link';
import { paths } from '@/lib/paths';
import { routingExplainQuery, routingPatternsQuery } from '@/lib/query/routing';

/**
 * Which handler pattern would receive `type`, under the deployment's routing file
 * (ASYNQLENS_ROUTING_FILE), by asynq's ServeMux rules. Null when no routing file is configured:
 * then nothing here can say which handler runs it.
 */
export function useRouteRow(type: string): [string, ReactNode] | null {
  const { data: cfg } = useQuery(routingPatternsQuery());
  const patterns = cfg?.patterns ?? [];
  const explain = useQuery({ ...routingExplainQuery(patterns, [type]), enabled: patterns.length > 0 && type !== '' });
  if (!cfg?.source) return null;
  if (cfg.problem) return ['Handler', <span key="r" className="text-warning">Routing file unusable: {cfg.problem}</span>];
  const route = explain.data?.routes[0];
  if (!route) return ['Handler', <span key="r" className="text-subtle">{explain.error ? explain.error.message : '…'}</span>];
  return [
    'Handler',
    <span key="r" className="flex flex-col gap-0.5" data-testid="precheck-route">
      {route.pattern !== null ? (
        <span>
          <code className="font-mono text-xs">{route.pattern}</code> <Badge tone={route.match === 'exact' ? 'green' : 'blue'}>{route.match}</Badge>
        </span>
      ) : (
        <span><Badge tone="red">no handler</Badge></span>
      )}
      <span className="text-xs text-muted">{route.explanation}</span>
      {route.warning && <span className="text-xs text-warning">{route.warning}</span>}
      <Link href={paths.routing({ patterns: patterns.join('\n') })} className="text-xs text-accent hover:underline">Open in the routing explainer</Link>
    </span>,
  ];
}
