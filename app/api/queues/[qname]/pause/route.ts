import { z } from 'zod';
import { queueParams } from '@/lib/contract/common';
import { route } from '@/lib/server/http/route';
import { setPaused } from '@/lib/server/services/mutations';

export const dynamic = 'force-dynamic';

export const POST = route({ params: queueParams, body: z.object({}).strict(), mutates: true }, ({ params }) =>
  setPaused(params.qname, true),
);
