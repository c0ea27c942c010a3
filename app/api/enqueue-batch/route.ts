import { batchEnqueueBodySchema } from '@/lib/contract/mutations';
import { route } from '@/lib/server/http/route';
import { enqueueBatch } from '@/lib/server/services/mutations';

export const dynamic = 'force-dynamic';

export const POST = route({ body: batchEnqueueBodySchema, mutates: true }, ({ body }) => enqueueBatch(body));
