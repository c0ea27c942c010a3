import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { cn } from '@/lib/utils';

const BASE =
  'rounded-md border border-line-strong bg-bg px-2 text-[13px] text-fg placeholder:text-subtle ' +
  'aria-[invalid=true]:border-danger disabled:opacity-60';

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(BASE, 'h-8 min-w-0', className)} {...props} />;
}

/** A monospace text area for payloads and JSON lines; it never wraps data it did not get. */
export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea spellCheck={false} className={cn(BASE, 'min-h-24 w-full py-1.5 font-mono text-xs leading-relaxed', className)} {...props} />;
}
