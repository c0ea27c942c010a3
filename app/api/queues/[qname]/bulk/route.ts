import { queueParams } from '@/lib/contract/common';
import { bulkBodySchema } from '@/lib/contract/mutations';
import { LIST_MAX_BODY } from '@/lib/server/http/request-input';
import { route } from '@/lib/server/http/route';
import { runBulk } from '@/lib/server/services/bulk';

export const dynamic = 'force-dynamic';

/** With `Accept: application/x-ndjson`, progress lines then the result (see route()). */
export const POST = route({ params: queueParams, body: bulkBodySchema, maxBody: LIST_MAX_BODY, mutates: true }, ({ params, body, signal }) =>
  runBulk(params.qname, body, signal),
);
