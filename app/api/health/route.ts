import { route } from '@/lib/server/http';
import { getHealth } from '@/lib/server/services/servers';

export const dynamic = 'force-dynamic';

export const GET = route({}, () => getHealth());
