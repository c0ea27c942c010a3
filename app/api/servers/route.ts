import { route } from '@/lib/server/http/route';
import { listServers } from '@/lib/server/services/servers';

export const dynamic = 'force-dynamic';

export const GET = route({}, () => listServers());
