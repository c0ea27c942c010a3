import { route } from '@/lib/server/http/route';
import { listQueues } from '@/lib/server/services/queues';

export const dynamic = 'force-dynamic';

export const GET = route({}, () => listQueues());
