import { route } from '@/lib/server/http/route';
import { listSchedulerEntries } from '@/lib/server/services/servers';

export const dynamic = 'force-dynamic';

export const GET = route({}, () => listSchedulerEntries());
