import { queueParams } from '@/lib/contract/common';
import { taskListQuery } from '@/lib/contract/tasks';
import { route } from '@/lib/server/http';
import { listTasks } from '@/lib/server/services/tasks';

export const dynamic = 'force-dynamic';

export const GET = route({ params: queueParams, query: taskListQuery }, ({ params, query }) =>
  listTasks(params.qname, query),
);
