import { queueParams } from '@/lib/contract/common';
import { enqueueCheckBodySchema } from '@/lib/contract/mutations';
import { MAX_PAYLOAD_BODY_BYTES } from '@/lib/server/dto/payload';
import { route } from '@/lib/server/http/route';
import { checkEnqueue } from '@/lib/server/services/mutations';

export const dynamic = 'force-dynamic';

// A read with a body (payloads can be megabytes): POST, but allowed in read-only mode.
export const POST = route({ params: queueParams, body: enqueueCheckBodySchema, maxBody: MAX_PAYLOAD_BODY_BYTES }, ({ params, body }) =>
  checkEnqueue(params.qname, body),
);
