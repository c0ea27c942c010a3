import { taskParams } from '@/lib/contract/tasks';
import { route } from '@/lib/server/http/route';
import { getTaskPayload } from '@/lib/server/services/tasks';

export const dynamic = 'force-dynamic';

export const GET = route({ params: taskParams }, ({ params }) => getTaskPayload(params.qname, params.taskId));
