'use client';

import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useAccount } from '@/lib/query/auth';

/**
 * The signed-in user, their role, Sign out and Sign out everywhere (every session of this user,
 * on every device), at the top of the sidebar. Nothing in mode none (there is nobody to show).
 * Signing out is a full navigation to /login, which drops every cached page and query of the
 * session.
 */
export function AccountMenu({ basePath }: { basePath: string }) {
  const account = useAccount();
  const [pending, setPending] = useState(false);
  if (!account || account.mode === 'none') return null;

  async function signOut(everywhere: boolean) {
    setPending(true);
    const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };
    await fetch(`${basePath}/api/auth/${everywhere ? 'logout-everywhere' : 'logout'}`, init).catch(() => null);
    window.location.assign(`${basePath}/login`);
  }

  return (
    <div data-testid="account" className="px-4 pb-2 text-xs">
      <div className="flex items-center gap-1.5">
        <span className="min-w-0 truncate font-medium text-fg" title={account.user}>
          {account.user}
        </span>
        <Badge tone={account.role === 'operator' ? 'accent' : 'neutral'} title={account.role === 'viewer' ? 'viewer role: read only' : 'operator role: reads and changes'}>
          {account.role}
        </Badge>
        {account.mode === 'login' && (
          <Button variant="ghost" size="sm" className="ml-auto" disabled={pending} onClick={() => void signOut(false)}>
            Sign out
          </Button>
        )}
      </div>
      {account.mode === 'login' && (
        <div className="flex justify-end">
          <Button variant="ghost" size="sm" disabled={pending} title={`End every session of ${account.user}, on every device`} onClick={() => void signOut(true)}>
            Sign out everywhere
          </Button>
        </div>
      )}
    </div>
  );
}
