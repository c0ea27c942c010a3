import { route } from '@/lib/server/http/route';
import { getRedisInfo } from '@/lib/server/services/servers';

export const dynamic = 'force-dynamic';

export const GET = route({}, () => getRedisInfo());
