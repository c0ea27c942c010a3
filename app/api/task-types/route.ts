import { taskTypesQuery } from '@/lib/contract/triage';
import { route } from '@/lib/server/http/route';
import { getTaskTypes } from '@/lib/server/services/triage';

export const dynamic = 'force-dynamic';

export const GET = route({ query: taskTypesQuery }, ({ query }) => getTaskTypes(query));
