'use client';

import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatBytes } from '@/lib/utils';
import { hexLine } from './bytes';

const FIRST_ROWS = 256;
const STEP_ROWS = 1024;

/** A classic hex dump (offset · 16 bytes · ASCII), a slice at a time. */
export function HexView({ bytes }: { bytes: Uint8Array }) {
  const [rows, setRows] = useState(FIRST_ROWS);
  const total = Math.ceil(bytes.length / 16);
  const text = useMemo(() => {
    const lines: string[] = [];
    for (let r = 0; r < Math.min(rows, total); r++) lines.push(hexLine(bytes, r * 16));
    return lines.join('\n');
  }, [bytes, rows, total]);
  return (
    <div className="flex flex-col">
      <pre data-testid="payload-hex" className="max-h-[32rem] overflow-auto p-3 font-mono text-xs leading-relaxed whitespace-pre">
        {text}
      </pre>
      {rows < total && (
        <div className="flex items-center gap-2 border-t border-line px-3 py-2 text-xs text-muted">
          Showing {formatBytes(rows * 16)} of {formatBytes(bytes.length)}.
          <Button size="sm" onClick={() => setRows((r) => r + STEP_ROWS)}>
            Show more
          </Button>
        </div>
      )}
    </div>
  );
}
