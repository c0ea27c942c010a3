import { lockListQuery } from '@/lib/contract/diagnostics';
import { route } from '@/lib/server/http/route';
import { listEveryLock } from '@/lib/server/services/diagnostics';

export const dynamic = 'force-dynamic';

export const GET = route({ query: lockListQuery }, ({ query }) => listEveryLock(query.cursor));
