import { queueParams } from '@/lib/contract/common';
import { duplicatesQuery } from '@/lib/contract/diagnostics';
import { route } from '@/lib/server/http/route';
import { cancelDuplicates, getDuplicates } from '@/lib/server/services/diagnostics';

export const dynamic = 'force-dynamic';

export const GET = route({ params: queueParams, query: duplicatesQuery }, ({ params, query }) =>
  getDuplicates(params.qname, query),
);

// Cancelling only stops a read; it is not a mutation of Redis, so read-only mode allows it.
export const DELETE = route({ params: queueParams, query: duplicatesQuery }, ({ params, query }) =>
  cancelDuplicates(params.qname, query),
);
