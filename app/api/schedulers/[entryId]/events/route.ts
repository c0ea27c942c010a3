import { schedulerEventsParams, schedulerEventsQuery } from '@/lib/contract/servers';
import { route } from '@/lib/server/http/route';
import { listSchedulerEvents } from '@/lib/server/services/servers';

export const dynamic = 'force-dynamic';

export const GET = route({ params: schedulerEventsParams, query: schedulerEventsQuery }, ({ params, query }) =>
  listSchedulerEvents(params.entryId, query.page, query.size),
);
