import { rerunBodySchema } from '@/lib/contract/triage';
import { route } from '@/lib/server/http/route';
import { rerunHandlerNotFound } from '@/lib/server/services/triage';

export const dynamic = 'force-dynamic';

/** With `Accept: application/x-ndjson`, progress lines then the result (see route()). */
export const POST = route({ body: rerunBodySchema, mutates: true }, ({ body, signal }) => rerunHandlerNotFound(body, signal));
