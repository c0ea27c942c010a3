import { failuresQuery } from '@/lib/contract/triage';
import { route } from '@/lib/server/http/route';
import { getFailures } from '@/lib/server/services/triage';

export const dynamic = 'force-dynamic';

export const GET = route({ query: failuresQuery }, ({ query }) => getFailures(query));
