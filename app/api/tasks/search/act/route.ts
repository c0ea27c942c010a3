import { searchActBodySchema } from '@/lib/contract/search';
import { route } from '@/lib/server/http/route';
import { actOnSearch } from '@/lib/server/services/search';

export const dynamic = 'force-dynamic';

/** With `Accept: application/x-ndjson`, progress lines then the result (see route()). */
export const POST = route({ body: searchActBodySchema, mutates: true }, ({ body, signal }) => actOnSearch(body, signal));
