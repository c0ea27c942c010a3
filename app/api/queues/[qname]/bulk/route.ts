import { queueParams } from '@/lib/contract/common';
import { bulkBodySchema } from '@/lib/contract/mutations';
import { route } from '@/lib/server/http/route';
import { runBulk } from '@/lib/server/services/bulk';

export const dynamic = 'force-dynamic';

export const POST = route({ params: queueParams, body: bulkBodySchema, mutates: true }, ({ params, body, req }) =>
  runBulk(params.qname, body, req),
);
