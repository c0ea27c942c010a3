import { PageHeader } from '@/components/common/page-header';
import { parseOverviewView } from '@/lib/url-state';
import { OverviewData } from './_components/overview-data';

/**
 * The overview is rendered on the server and re-rendered by AutoRefresh: its JavaScript budget
 * (150 KB gzipped, of which React and Next take ~136) leaves no room for a client data layer.
 * The queue table is awaited rather than streamed behind a skeleton: its read is one shared
 * Redis snapshot (milliseconds), and the first paint then already shows the data.
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
