import { queueParams } from '@/lib/contract/common';
import { deleteQueueQuery } from '@/lib/contract/mutations';
import { route } from '@/lib/server/http/route';
import { removeQueue } from '@/lib/server/services/mutations';
import { getQueue } from '@/lib/server/services/queues';

export const dynamic = 'force-dynamic';

export const GET = route({ params: queueParams }, ({ params }) => getQueue(params.qname));

export const DELETE = route({ params: queueParams, query: deleteQueueQuery, mutates: true }, ({ params, query }) =>
  removeQueue(params.qname, query.force),
);
