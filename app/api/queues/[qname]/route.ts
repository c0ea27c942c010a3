import { queueParams } from '@/lib/contract/common';
import { route } from '@/lib/server/http';
import { getQueue } from '@/lib/server/services/queues';

export const dynamic = 'force-dynamic';

export const GET = route({ params: queueParams }, ({ params }) => getQueue(params.qname));
