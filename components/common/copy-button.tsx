'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';

/**
 * Copies `text` (or what `getText` returns, for big values built only on demand). `iconOnly`
 * (in a table cell) shows the icon alone; `label` is then its accessible name and tooltip.
 */
export function CopyButton({ text, getText, label = 'Copy', iconOnly = false }: { text?: string; getText?: () => string; label?: string; iconOnly?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      variant="ghost"
      aria-label={iconOnly && copied ? 'Copied' : label}
      title={iconOnly ? label : undefined}
      className={iconOnly ? 'size-6 px-0' : undefined}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(getText ? getText() : (text ?? ''));
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        } catch {
          setCopied(false);
        }
      }}
    >
      <Icon name={copied ? 'check' : 'copy'} size={13} />
      {!iconOnly && (copied ? 'Copied' : label)}
    </Button>
  );
}
