import 'server-only';
import { headers } from 'next/headers';
import type { MeDto } from '@/lib/contract/auth';
import { authenticate } from './principal';

/**
 * The account of the request being rendered (server components), or null. proxy.ts already let
 * the request in; this re-reads the same cookie or proxy headers (an HMAC; the session's Redis
 * check is normally still cached from proxy.ts, see session-store.ts).
 */
export async function currentAccount(): Promise<MeDto | null> {
  const outcome = await authenticate(new Request('http://asynqlens.local/', { headers: await headers() }), '/');
  if (!outcome.ok) return null;
  const { user, role, mode } = outcome.principal;
  return { user, role, mode };
}

/** '' or `/prefix`, for links the client builds by hand (sign-out, sign-in). */
export const basePath = (): string => (process.env.ASYNQLENS_BASE_PATH ?? '').trim().replace(/\/+$/, '');
