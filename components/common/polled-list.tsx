'use client';

import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/common/page-header';
import { QueryResult } from '@/components/common/query-result';
import { EmptyState } from '@/components/common/states';
import { Panel } from '@/components/ui/panel';
import { usePollInterval } from '@/lib/query/use-poll-interval';

/** A polled read, the one way a page's list is fetched: its query options with the poll policy spread in. */
export function usePolledList<T, K extends QueryKey>(options: UseQueryOptions<T, Error, T, K>) {
  return useQuery({ ...options, ...usePollInterval<T>() });
}

interface Props<T> {
  title: string;
  /** The heading's summary, shown once the first answer is in. */
  meta: (data: T) => ReactNode;
  query: ReturnType<typeof usePolledList<T, QueryKey>>;
  errorTitle: string;
  /** The empty state's title and text, when the answer lists nothing. */
  empty: { when: (data: T) => boolean; title: string; text: ReactNode };
  children: (data: T) => ReactNode;
}

/** A page that is one polled list: its heading with a summary, and the list in a panel with loading, error and empty states. */
export function PolledList<T>({ title, meta, query, errorTitle, empty, children }: Props<T>) {
  const { data } = query;
  return (
    <>
      <PageHeader title={title} meta={data !== undefined && meta(data)} />
      <Panel flush>
        <QueryResult query={query} rows={3} errorTitle={errorTitle} empty={data !== undefined && empty.when(data) && <EmptyState title={empty.title}>{empty.text}</EmptyState>}>
          {children}
        </QueryResult>
      </Panel>
    </>
  );
}
