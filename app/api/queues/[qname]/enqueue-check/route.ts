import { queueParams } from '@/lib/contract/common';
import { enqueueCheckBodySchema } from '@/lib/contract/mutations';
import { route } from '@/lib/server/http/route';
import { checkEnqueue } from '@/lib/server/services/mutations';

export const dynamic = 'force-dynamic';

// A read with a body (payloads can be megabytes): POST, but allowed in read-only mode.
export const POST = route({ params: queueParams, body: enqueueCheckBodySchema }, ({ params, body }) =>
  checkEnqueue(params.qname, body),
);
