import { taskParams } from '@/lib/contract/tasks';
import { attachment } from '@/lib/server/http/responses';
import { route } from '@/lib/server/http/route';
import { getTaskPayload } from '@/lib/server/services/tasks';

export const dynamic = 'force-dynamic';

export const GET = route({ params: taskParams }, async ({ params }) =>
  attachment(await getTaskPayload(params.qname, params.taskId), `${params.taskId}.bin`),
);
