import { Suspense } from 'react';
import { PageHeader } from '@/components/common/page-header';
import { OverviewSkeleton } from '@/components/overview/overview-skeleton';
import { parseOverviewView } from '@/lib/url-state';
import { OverviewData } from './_components/overview-data';

/**
 * The overview is rendered on the server and re-rendered by AutoRefresh: its JavaScript budget
 * (150 KB gzipped, of which React and Next take ~136) leaves no room for a client data layer.
 */
export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const view = parseOverviewView(await searchParams);
  return (
    <>
      <PageHeader title="Overview" />
      <Suspense fallback={<OverviewSkeleton />}>
        <OverviewData view={view} />
      </Suspense>
    </>
  );
}
