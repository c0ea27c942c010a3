import { writableQueueParams } from '@/lib/contract/common';
import { enqueueReplacingArchivedBodySchema } from '@/lib/contract/mutations';
import { MAX_PAYLOAD_BODY_BYTES } from '@/lib/server/dto/payload';
import { route } from '@/lib/server/http/route';
import { enqueueReplacingArchived } from '@/lib/server/services/mutations';

export const dynamic = 'force-dynamic';

// One confirmed, audited action: the archived task that blocks the enqueue goes and the task is enqueued.
export const POST = route(
  { params: writableQueueParams, body: enqueueReplacingArchivedBodySchema, maxBody: MAX_PAYLOAD_BODY_BYTES, mutates: true, status: 201 },
  ({ params, body }) => enqueueReplacingArchived(params.qname, body),
);
