import { auditQuery } from '@/lib/contract/audit';
import { listAudit } from '@/lib/server/audit/log';
import { route } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

export const GET = route({ query: auditQuery }, ({ query }) => listAudit(query.page, query.size));
