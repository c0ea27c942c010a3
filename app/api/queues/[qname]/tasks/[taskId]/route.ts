import { updatePayloadBodySchema } from '@/lib/contract/mutations';
import { taskParams } from '@/lib/contract/tasks';
import { MAX_PAYLOAD_BODY_BYTES } from '@/lib/server/dto/payload';
import { route } from '@/lib/server/http/route';
import { deleteTask, updatePayload } from '@/lib/server/services/mutations';
import { getTask } from '@/lib/server/services/tasks';

export const dynamic = 'force-dynamic';

export const GET = route({ params: taskParams }, ({ params }) => getTask(params.qname, params.taskId));

export const PATCH = route({ params: taskParams, body: updatePayloadBodySchema, maxBody: MAX_PAYLOAD_BODY_BYTES, mutates: true }, ({ params, body }) =>
  updatePayload(params.qname, params.taskId, body.payload, body.payloadEncoding),
);

export const DELETE = route({ params: taskParams, mutates: true }, ({ params }) => deleteTask(params.qname, params.taskId));
