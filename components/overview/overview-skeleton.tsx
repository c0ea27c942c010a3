import { Panel } from '@/components/ui/panel';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';

export function OverviewSkeleton() {
  return (
    <>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-[74px]" />
        ))}
      </div>
      <Panel flush>
        <SkeletonRows rows={5} />
      </Panel>
    </>
  );
}
