'use client';

import { useSyncExternalStore } from 'react';
import { cn } from '@/lib/utils';
import { SafeText } from '@/components/ui/safe-text';

type Tone = 'info' | 'error' | 'success';
interface Toast {
  id: number;
  tone: Tone;
  text: string;
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const EMPTY: Toast[] = [];

function dismiss(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

/** Shows a short message for 5 s (errors for 8 s). Text only: messages can quote server data. */
export function toast(text: string, tone: Tone = 'info'): void {
  const id = nextId++;
  toasts = [...toasts.slice(-3), { id, tone, text }];
  emit();
  setTimeout(() => dismiss(id), tone === 'error' ? 8000 : 5000);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

export function Toaster() {
  const list = useSyncExternalStore(subscribe, () => toasts, () => EMPTY);
  return (
    <div aria-live="polite" className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-80 flex-col gap-2">
      {list.map((t) => (
        <div
          key={t.id}
          role={t.tone === 'error' ? 'alert' : 'status'}
          className={cn(
            'pointer-events-auto flex items-start gap-2 rounded-md border bg-panel px-3 py-2 text-[13px] shadow-lg',
            t.tone === 'error' ? 'border-danger/40' : t.tone === 'success' ? 'border-success/40' : 'border-line',
          )}
        >
          <span className={cn('mt-1.5 size-1.5 shrink-0 rounded-full', t.tone === 'error' ? 'bg-danger' : t.tone === 'success' ? 'bg-success' : 'bg-accent')} />
          <span className="min-w-0 flex-1 break-words"><SafeText text={t.text} /></span>

          <button type="button" aria-label="Dismiss" onClick={() => dismiss(t.id)} className="text-subtle hover:text-fg">
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
