import { rescheduleBodySchema } from '@/lib/contract/mutations';
import { taskParams } from '@/lib/contract/tasks';
import { route } from '@/lib/server/http/route';
import { rescheduleTask } from '@/lib/server/services/mutations';

export const dynamic = 'force-dynamic';

export const POST = route({ params: taskParams, body: rescheduleBodySchema, mutates: true }, ({ params, body }) =>
  rescheduleTask(params.qname, params.taskId, body.processAt),
);
