import { searchQuerySchema } from '@/lib/contract/search';
import { route } from '@/lib/server/http/route';
import { queryMultiMap } from '@/lib/server/http/query-params';
import { search } from '@/lib/server/services/search';

export const dynamic = 'force-dynamic';

// The query is parsed here rather than by route(): filters may repeat (queue=a&queue=b).
export const GET = route({}, ({ req }) => search(searchQuerySchema.parse(queryMultiMap(req)), req.signal));
