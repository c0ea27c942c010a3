'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatBytes } from '@/lib/utils';
import { SafeText } from '@/components/ui/safe-text';

const FIRST = 64 * 1024;
const STEP = 256 * 1024;

/**
 * Long text shown a slice at a time: a 10 MB payload in one <pre> would stall layout for
 * seconds. Text only, never markup; invisible and control characters shown escaped.

 */
export function LimitedText({ text, className }: { text: string; className?: string }) {
  const [shown, setShown] = useState(FIRST);
  const rest = text.length - shown;
  return (
    <div className="flex flex-col">
      <pre data-testid="payload-text" className={className ?? 'max-h-[32rem] overflow-auto p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap'}>
        <SafeText text={rest > 0 ? text.slice(0, shown) : text} keepLineBreaks />
      </pre>
      {rest > 0 && (
        <div className="flex items-center gap-2 border-t border-line px-3 py-2 text-xs text-muted">
          Showing {formatBytes(shown)} of {formatBytes(text.length)} characters.
          <Button size="sm" onClick={() => setShown((s) => s + STEP)}>
            Show {formatBytes(Math.min(STEP, rest))} more
          </Button>
        </div>
      )}
    </div>
  );
}
