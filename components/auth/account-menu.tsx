'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useAccount } from '@/lib/query/auth';
import { RoleBadge } from './role-badge';

/**
 * The signed-in user, their role and Sign out, at the top of the sidebar. Nothing in mode none
 * (there is nobody to show). Signing out is a full navigation to /login, which drops every
 * cached page and query of the session.
 */
export function AccountMenu({ basePath }: { basePath: string }) {
  const account = useAccount();
  const [pending, setPending] = useState(false);
  if (!account || account.mode === 'none') return null;

  async function signOut() {
    setPending(true);
    await fetch(`${basePath}/api/auth/logout`, { method: 'POST' }).catch(() => null);
    window.location.assign(`${basePath}/login`);
  }

  return (
    <div data-testid="account" className="flex items-center gap-1.5 px-4 pb-2 text-xs">
      <span className="min-w-0 truncate font-medium text-fg" title={account.user}>
        {account.user}
      </span>
      <RoleBadge role={account.role} title={account.role === 'viewer' ? 'viewer role: read only' : 'operator role: reads and changes'} />
      {account.mode === 'login' && (
        <Button variant="ghost" size="sm" className="ml-auto" disabled={pending} onClick={() => void signOut()}>
          Sign out
        </Button>
      )}
    </div>
  );
}
