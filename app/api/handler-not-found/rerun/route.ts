import { rerunBodySchema } from '@/lib/contract/triage';
import { route } from '@/lib/server/http/route';
import { rerunHandlerNotFound } from '@/lib/server/services/triage';

export const dynamic = 'force-dynamic';

export const POST = route({ body: rerunBodySchema, mutates: true }, ({ body, req }) => rerunHandlerNotFound(body, req));
