import { notFoundCountQuery } from '@/lib/contract/triage';
import { route } from '@/lib/server/http/route';
import { countHandlerNotFound } from '@/lib/server/services/triage';

export const dynamic = 'force-dynamic';

/** The exact count a re-run of (queue, type) would move now: what its confirmation shows. */
export const GET = route({ query: notFoundCountQuery }, ({ query, signal }) => countHandlerNotFound(query, signal));
