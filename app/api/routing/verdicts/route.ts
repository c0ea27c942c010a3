import { routingVerdictsQuery } from '@/lib/contract/routing-verdicts';
import { route } from '@/lib/server/http/route';
import { getRoutingVerdicts } from '@/lib/server/services/routing-verdicts';

export const dynamic = 'force-dynamic';

export const GET = route({ query: routingVerdictsQuery }, ({ query }) => getRoutingVerdicts(query));
