import { PageHeader } from '@/components/common/page-header';
import { parseOverviewView } from '@/lib/url-state';
import { OverviewData } from './_components/overview-data';

/**
 * The overview. Its live part (totals, one page of the queue table) is server-rendered with
 * data at the visit, then follows the live snapshot every tab shares (lib/query/live-snapshot.ts,
 * a fetch poller: the JavaScript budget of 150 KB gzipped, of which React and Next take ~136,
 * leaves no room for TanStack Query). The table is awaited rather than streamed behind a
 * skeleton: its read is the shared snapshot (milliseconds), so the first paint shows the data.
 */
export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const view = parseOverviewView(await searchParams);
  return (
    <>
      <PageHeader title="Overview" />
      <OverviewData view={view} />
    </>
  );
}
