'use client';

import type { ReactNode } from 'react';
import type { MeDto } from '@/lib/contract/auth';
import { AccountContext } from '@/lib/query/auth';

/** Hands the account the server resolved to every client component of the shell. */
export function AccountProvider({ account, children }: { account: MeDto | null; children: ReactNode }) {
  return <AccountContext.Provider value={account}>{children}</AccountContext.Provider>;
}
