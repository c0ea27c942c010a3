import { searchActBodySchema } from '@/lib/contract/search';
import { route } from '@/lib/server/http/route';
import { actOnSearch } from '@/lib/server/services/search';

export const dynamic = 'force-dynamic';

export const POST = route({ body: searchActBodySchema, mutates: true }, ({ body, req }) => actOnSearch(body, req));
