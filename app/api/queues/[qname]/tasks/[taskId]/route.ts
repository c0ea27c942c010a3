import { taskParams } from '@/lib/contract/tasks';
import { route } from '@/lib/server/http';
import { getTask } from '@/lib/server/services/tasks';

export const dynamic = 'force-dynamic';

export const GET = route({ params: taskParams }, ({ params }) => getTask(params.qname, params.taskId));
