import { routingExplainBodySchema } from '@/lib/contract/triage';
import { route } from '@/lib/server/http/route';
import { explainRouting } from '@/lib/server/services/triage';

export const dynamic = 'force-dynamic';

// A read (read-only mode allows it) that carries a body: refused from other sites and without
// a JSON content type before the body is parsed, as mutations are.
export const POST = route({ body: routingExplainBodySchema, sameSite: true }, ({ body }) => explainRouting(body));
