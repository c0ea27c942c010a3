import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/utils';

export type Tone = 'neutral' | 'accent' | 'blue' | 'green' | 'amber' | 'red' | 'violet' | 'cyan';

const TONES: Record<Tone, string> = {
  neutral: 'bg-hover text-muted ring-line',
  accent: 'bg-accent-soft text-accent ring-accent/25',
  blue: 'bg-sky-500/10 text-sky-700 ring-sky-500/25 dark:text-sky-300',
  green: 'bg-emerald-500/10 text-emerald-700 ring-emerald-500/25 dark:text-emerald-300',
  amber: 'bg-amber-500/10 text-amber-800 ring-amber-500/30 dark:text-amber-300',
  red: 'bg-red-500/10 text-red-700 ring-red-500/25 dark:text-red-300',
  violet: 'bg-violet-500/10 text-violet-700 ring-violet-500/25 dark:text-violet-300',
  cyan: 'bg-cyan-500/10 text-cyan-700 ring-cyan-500/25 dark:text-cyan-300',
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: Tone;
}

export function Badge({ tone = 'neutral', className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex h-5 items-center gap-1 rounded px-1.5 text-[11px] font-medium whitespace-nowrap ring-1 ring-inset',
        TONES[tone],
        className,
      )}
      {...props}
    />
  );
}
