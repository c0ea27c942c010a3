import { route } from '@/lib/server/http/route';
import { getRoutingPatterns } from '@/lib/server/services/triage';

export const dynamic = 'force-dynamic';

export const GET = route({}, () => getRoutingPatterns());
