import { queueParams, writableQueueParams } from '@/lib/contract/common';
import { enqueueBodySchema } from '@/lib/contract/mutations';
import { taskListQuery } from '@/lib/contract/tasks';
import { MAX_PAYLOAD_BODY_BYTES } from '@/lib/server/dto/payload';
import { route } from '@/lib/server/http/route';
import { enqueue } from '@/lib/server/services/mutations';
import { listTasks } from '@/lib/server/services/tasks';

export const dynamic = 'force-dynamic';

export const GET = route({ params: queueParams, query: taskListQuery }, ({ params, query }) =>
  listTasks(params.qname, query),
);

export const POST = route({ params: writableQueueParams, body: enqueueBodySchema, maxBody: MAX_PAYLOAD_BODY_BYTES, mutates: true, status: 201 }, ({ params, body }) =>
  enqueue(params.qname, body),
);
