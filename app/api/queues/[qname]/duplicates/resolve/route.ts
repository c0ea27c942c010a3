import { queueParams } from '@/lib/contract/common';
import { resolveDuplicatesBody } from '@/lib/contract/diagnostics';
import { LIST_MAX_BODY } from '@/lib/server/http/request-input';
import { route } from '@/lib/server/http/route';
import { resolveDuplicates } from '@/lib/server/services/diagnostics';

export const dynamic = 'force-dynamic';

export const POST = route({ params: queueParams, body: resolveDuplicatesBody, maxBody: LIST_MAX_BODY, mutates: true }, ({ params, body }) =>
  resolveDuplicates(params.qname, body.taskIds),
);
