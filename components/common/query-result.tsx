import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SkeletonRows } from '@/components/ui/skeleton';
import { ErrorState } from './states';

interface Props<T> {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending' | 'refetch'>;
  /** Skeleton rows while the first answer is on its way. */
  rows?: number;
  errorTitle?: string;
  /** What to show instead of the content when the answer has nothing in it (falsy: not empty). */
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * A panel's read before its content: skeleton rows until the first answer, the API's error
 * with a retry when there is no answer to show, the empty state, else the content. Data kept
 * from an earlier answer stays shown through a failed refresh.
 */
export function QueryResult<T>({ query, rows, errorTitle, empty, children }: Props<T>) {
  if (query.isPending) return <SkeletonRows rows={rows} />;
  if (query.data === undefined) return <ErrorState error={query.error} onRetry={() => void query.refetch()} title={errorTitle} />;
  return empty || children(query.data);
}
