import { queueParams } from '@/lib/contract/common';
import { historyQuery } from '@/lib/contract/queues';
import { route } from '@/lib/server/http/route';
import { getHistory } from '@/lib/server/services/queues';

export const dynamic = 'force-dynamic';

export const GET = route({ params: queueParams, query: historyQuery }, ({ params, query }) =>
  getHistory(params.qname, query.days),
);
