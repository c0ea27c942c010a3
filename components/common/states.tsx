import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { isApiError } from '@/lib/query/fetcher';
import { SafeText } from '@/components/ui/safe-text';

/** Why a section could not load, in the API's own words, with a retry. */
export function ErrorState({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  const code = isApiError(error) ? error.code : null;
  return (
    <div role="alert" className="flex flex-col items-center gap-2 px-6 py-10 text-center">
      <Icon name="alert" size={20} className="text-danger" />
      <p className="text-[13px] font-medium"><SafeText text={title ?? 'Could not load this'} /></p>
      <p className="max-w-lg text-xs break-words text-muted">
        {code && <code className="mr-1 rounded bg-hover px-1 font-mono">{code}</code>}
        <SafeText text={message} />
      </p>
      {onRetry && (
        <Button size="sm" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-1 px-6 py-12 text-center">
      <p className="text-[13px] font-medium"><SafeText text={title} /></p>

      {children && <div className="max-w-md text-xs text-muted">{children}</div>}
    </div>
  );
}
