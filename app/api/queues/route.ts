import { queueListQuery } from '@/lib/contract/queues';
import { route } from '@/lib/server/http/route';
import { listQueuePage } from '@/lib/server/services/queues';

export const dynamic = 'force-dynamic';

/** Every queue, or one page of them (`page`, `size`, `search`, `sort`, `order`); see docs/api.md. */
export const GET = route({ query: queueListQuery }, ({ query }) => listQueuePage(query));
