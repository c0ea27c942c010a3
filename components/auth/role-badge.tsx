import { Badge } from '@/components/ui/badge';
import type { Role } from '@/lib/contract/auth';

/** A role, as the account menu and the audit log show it: operators stand out, viewers do not. */
export function RoleBadge({ role, title }: { role: Role; title?: string }) {
  return (
    <Badge tone={role === 'operator' ? 'accent' : 'neutral'} title={title}>
      {role}
    </Badge>
  );
}
