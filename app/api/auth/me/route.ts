import { me } from '@/lib/server/auth/login';
import { route } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

export const GET = route({}, ({ req }) => me(req));
