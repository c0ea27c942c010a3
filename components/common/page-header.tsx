import type { ReactNode } from 'react';
import { SafeText } from '@/components/ui/safe-text';

export function PageHeader({ title, meta, actions }: { title: ReactNode; meta?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h1 className="truncate text-lg font-semibold tracking-tight">{typeof title === 'string' ? <SafeText text={title} /> : title}</h1>

        {meta && <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted">{meta}</div>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
