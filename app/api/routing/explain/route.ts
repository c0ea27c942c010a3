import { route } from '@/lib/server/http/route';
import { explainRouting } from '@/lib/server/services/triage';

export const dynamic = 'force-dynamic';

// A read, so not `mutates` (read-only mode allows it); the service still refuses other sites
// and non-JSON bodies before parsing the body with the contract's schema.
export const POST = route({}, ({ req }) => explainRouting(req));
