import { failureScanQuery } from '@/lib/contract/triage';
import { route } from '@/lib/server/http/route';
import { getHandlerNotFound } from '@/lib/server/services/triage';

export const dynamic = 'force-dynamic';

export const GET = route({ query: failureScanQuery }, ({ query }) => getHandlerNotFound(query));
