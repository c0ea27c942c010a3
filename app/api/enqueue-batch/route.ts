import { batchEnqueueBodySchema } from '@/lib/contract/mutations';
import { MAX_PAYLOAD_BODY_BYTES } from '@/lib/server/dto/payload';
import { route } from '@/lib/server/http/route';
import { enqueueBatch } from '@/lib/server/services/mutations';

export const dynamic = 'force-dynamic';

export const POST = route({ body: batchEnqueueBodySchema, maxBody: MAX_PAYLOAD_BODY_BYTES, mutates: true }, ({ body }) => enqueueBatch(body));
