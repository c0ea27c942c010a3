import { z } from 'zod';
import { taskActionSchema } from '@/lib/contract/mutations';
import { taskParams } from '@/lib/contract/tasks';
import { accepted } from '@/lib/server/http/responses';
import { route } from '@/lib/server/http/route';
import { runTaskAction } from '@/lib/server/services/mutations';

export const dynamic = 'force-dynamic';

const params = taskParams.extend({ action: taskActionSchema });

export const POST = route({ params, body: z.object({}).strict(), mutates: true }, async ({ params }) =>
  (await runTaskAction(params.qname, params.taskId, params.action)) ?? accepted(),
);
