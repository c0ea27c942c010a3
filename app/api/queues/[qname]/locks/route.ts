import { queueParams } from '@/lib/contract/common';
import { lockReleaseQuery, queueLockListQuery } from '@/lib/contract/diagnostics';
import { route } from '@/lib/server/http/route';
import { listLocks, releaseQueueLock } from '@/lib/server/services/diagnostics';

export const dynamic = 'force-dynamic';

export const GET = route({ params: queueParams, query: queueLockListQuery }, ({ params, query }) =>
  listLocks(params.qname, query),
);

export const DELETE = route({ params: queueParams, query: lockReleaseQuery, mutates: true }, ({ params, query }) =>
  releaseQueueLock(params.qname, query.key, query.holder),
);
