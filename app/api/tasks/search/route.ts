import { searchQuerySchema } from '@/lib/contract/search';
import { route } from '@/lib/server/http/route';
import { search } from '@/lib/server/services/search';

export const dynamic = 'force-dynamic';

// Filters may repeat (queue=a&queue=b): the schema reads the query as a multi-map.
export const GET = route({ query: searchQuerySchema, repeatable: true }, ({ query, signal }) => search(query, signal));
