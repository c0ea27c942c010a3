import { routingExplainBodySchema } from '@/lib/contract/triage';
import { LIST_MAX_BODY } from '@/lib/server/http/request-input';
import { route } from '@/lib/server/http/route';
import { explainRouting } from '@/lib/server/services/triage';

export const dynamic = 'force-dynamic';

// A read (read-only mode allows it) that carries a body: refused from other sites and without
// a JSON content type before the body is parsed, as mutations are.
export const POST = route({ body: routingExplainBodySchema, maxBody: LIST_MAX_BODY, sameSite: true }, ({ body }) => explainRouting(body));
