'use client';

import { useMemo, useState, type ReactNode } from 'react';
import { CopyButton } from '@/components/common/copy-button';
import { cn } from '@/lib/utils';
import { base64ToBytes, bytesToBase64, tryParseJson } from './bytes';
import { HexView } from './hex-view';
import { JsonTree } from './json-tree';
import { LimitedText } from './limited-text';

export type PayloadContent = { kind: 'text'; text: string } | { kind: 'binary'; bytes: Uint8Array };

/** The API's `{ text, encoding }` pair as content to show. */
export function toContent(text: string, encoding: 'utf8' | 'base64'): PayloadContent {
  return encoding === 'base64' ? { kind: 'binary', bytes: base64ToBytes(text) } : { kind: 'text', text };
}

type Mode = 'tree' | 'raw' | 'text' | 'hex' | 'base64';
const LABEL: Record<Mode, string> = { tree: 'Tree', raw: 'Raw', text: 'Text', hex: 'Hex', base64: 'Base64' };

/**
 * Bytes shown for what they are: a collapsible tree for JSON, plain text for other UTF-8, a hex
 * dump and base64 for anything else. Always as text nodes: a payload is data, never markup.
 */
export function PayloadView({ content, extra }: { content: PayloadContent; extra?: ReactNode }) {
  const json = useMemo(() => (content.kind === 'text' ? tryParseJson(content.text) : { ok: false as const }), [content]);
  const modes: Mode[] = content.kind === 'binary' ? ['hex', 'base64'] : json.ok ? ['tree', 'raw'] : ['text'];
  const [picked, setMode] = useState<Mode>(modes[0] ?? 'text');
  const mode = modes.includes(picked) ? picked : (modes[0] ?? 'text');
  const base64 = useMemo(() => (content.kind === 'binary' && mode === 'base64' ? bytesToBase64(content.bytes) : ''), [content, mode]);
  const copyText = () => {
    if (content.kind === 'binary') return bytesToBase64(content.bytes);
    return mode === 'tree' && json.ok ? JSON.stringify(json.value, null, 2) : content.text;
  };
  return (
    <div className="flex flex-col">
      <div className="flex items-center gap-1 border-b border-line px-2 py-1">
        {modes.length > 1 &&
          modes.map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={m === mode}
              onClick={() => setMode(m)}
              className={cn('h-6 rounded px-2 text-xs', m === mode ? 'bg-hover font-medium text-fg' : 'text-muted hover:text-fg')}
            >
              {LABEL[m]}
            </button>
          ))}
        {modes.length === 1 && <span className="px-2 text-xs text-muted">{content.kind === 'text' ? 'Text' : LABEL[mode]}</span>}
        <div className="ml-auto flex items-center gap-1">
          {extra}
          <CopyButton getText={copyText} label={content.kind === 'binary' ? 'Copy base64' : 'Copy'} />
        </div>
      </div>
      {content.kind === 'binary' ? (
        mode === 'hex' ? <HexView bytes={content.bytes} /> : <LimitedText text={base64} />
      ) : mode === 'tree' && json.ok ? (
        <JsonTree value={json.value} />
      ) : (
        <LimitedText text={content.text} />
      )}
    </div>
  );
}
