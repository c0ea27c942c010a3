import type { ReactNode } from 'react';

export function Kbd({ children }: { children: ReactNode }) {
  return (
    <kbd className="inline-flex h-4 min-w-4 items-center justify-center rounded border border-line-strong bg-bg-subtle px-1 font-mono text-[10px] text-muted">
      {children}
    </kbd>
  );
}
