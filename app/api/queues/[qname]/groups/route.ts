import { queueParams } from '@/lib/contract/common';
import { route } from '@/lib/server/http/route';
import { listGroups } from '@/lib/server/services/queues';

export const dynamic = 'force-dynamic';

export const GET = route({ params: queueParams }, ({ params }) => listGroups(params.qname));
