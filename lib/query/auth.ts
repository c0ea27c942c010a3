'use client';

/**
 * The signed-in account, as the server rendered it into the dashboard shell (so no page has to
 * ask /api/auth/me). Null outside the shell, or when authentication is off.
 */
import { createContext, useContext } from 'react';
import type { MeDto } from '@/lib/contract/auth';

export const AccountContext = createContext<MeDto | null>(null);

export function useAccount(): MeDto | null {
  return useContext(AccountContext);
}

/** True for a viewer: the API refuses its mutations with 403 forbidden_role, so the UI offers none. */
export function useViewerOnly(): boolean {
  return useAccount()?.role === 'viewer';
}
