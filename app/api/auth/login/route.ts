import { loginBodySchema } from '@/lib/contract/auth';
import { login } from '@/lib/server/auth/login';
import { route } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

export const POST = route({ body: loginBodySchema }, ({ req, body }) => login(req, body));
