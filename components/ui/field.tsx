import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

interface FieldProps {
  /** The control's id: the label points at it, and `${id}-msg` holds the error or the hint. */
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Shown in place of the hint, in the danger colour (the server's own words when it refused). */
  error?: string | null | undefined;
  className?: string;
  children: ReactNode;
}

/**
 * A labelled control with its hint or error underneath. Give the control
 * `aria-describedby={`${id}-msg`}` and `aria-invalid={!!error}`.
 */
export function Field({ id, label, hint, error, className, children }: FieldProps) {
  return (
    <div data-field={id} className={cn('flex min-w-0 flex-col gap-1', className)}>
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      {children}
      {(error ?? hint) && (
        <p id={`${id}-msg`} role={error ? 'alert' : undefined} className={cn('text-[11px] leading-snug', error ? 'text-danger' : 'text-subtle')}>
          {error ?? hint}
        </p>
      )}
    </div>
  );
}
