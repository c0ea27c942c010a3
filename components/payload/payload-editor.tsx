'use client';

import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { Textarea } from '@/components/ui/input';
import { cn, formatBytes } from '@/lib/utils';
import { bytesToBase64 } from './bytes';
import { canonicalJson, encodePayload, prettyJson, type BinaryFormat, type PayloadDraft, type PayloadMode } from './payload-draft';

const MODES: [PayloadMode, string][] = [['json', 'JSON'], ['text', 'Text'], ['binary', 'Binary'], ['none', 'No payload']];
const FORMATS: [BinaryFormat, string][] = [['hex', 'Hex'], ['base64', 'Base64'], ['file', 'File']];

const HINT: Record<PayloadMode, string> = {
  json: 'Sent byte for byte as typed: whitespace and key order are part of the unique key. Canonicalise sorts keys and drops whitespace, as Go’s json.Marshal writes a map.',
  text: 'UTF-8 text, sent as typed. Empty text is an empty payload, which is not the same unique key as no payload.',
  binary: 'Raw bytes.',
  none: 'Go’s nil payload, as NewTask(type, nil) sends. Its unique key differs from an empty payload’s.',
};

function Segmented<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: [T, string][]; onChange: (v: T) => void }) {
  return (
    <div role="radiogroup" aria-label={label} className="inline-flex rounded-md border border-line-strong p-0.5">
      {options.map(([v, text]) => (
        <button key={v} type="button" role="radio" aria-checked={v === value} onClick={() => onChange(v)}
          className={cn('h-6 rounded px-2 text-xs', v === value ? 'bg-accent text-accent-fg' : 'text-muted hover:text-fg')}>
          {text}
        </button>
      ))}
    </div>
  );
}

interface Props {
  id: string;
  draft: PayloadDraft;
  onChange: (d: PayloadDraft) => void;
  /** The server's refusal, shown in place of the hint. */
  serverError?: string | undefined;
  /** PATCH cannot set a nil payload: hide "No payload". */
  allowNil?: boolean;
}

/** JSON (validated, canonicalise, pretty-print), text, or bytes as hex, base64 or a file. */
export function PayloadEditor({ id, draft, onChange, serverError, allowNil = true }: Props) {
  const encoded = encodePayload(draft);
  const error = serverError ?? (encoded.ok ? null : encoded.error);
  const set = (patch: Partial<PayloadDraft>) => onChange({ ...draft, ...patch });
  const jsonOk = draft.mode === 'json' && encoded.ok;
  return (
    <div data-field={id} className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-2">
        <Segmented label="Payload format" value={draft.mode} options={allowNil ? MODES : MODES.filter(([m]) => m !== 'none')} onChange={(mode) => set({ mode })} />
        {draft.mode === 'binary' && <Segmented label="Bytes as" value={draft.binaryFormat} options={FORMATS} onChange={(binaryFormat) => set({ binaryFormat })} />}
        <span className="ml-auto text-[11px] text-subtle" data-testid="payload-size">{encoded.ok ? (encoded.payload === null ? 'nil' : formatBytes(encoded.size)) : ''}</span>
        {draft.mode === 'json' && (
          <>
            <Button size="sm" disabled={!jsonOk} onClick={() => set({ text: canonicalJson(draft.text) })} title="Sort keys at every depth and drop whitespace">Canonicalise</Button>
            <Button size="sm" variant="ghost" disabled={!jsonOk} onClick={() => set({ text: prettyJson(draft.text) })}>Pretty-print</Button>
          </>
        )}
      </div>
      {(draft.mode === 'json' || draft.mode === 'text') && (
        <Textarea id={id} aria-label="Payload" aria-invalid={!!error} aria-describedby={`${id}-msg`} rows={8} value={draft.text} onChange={(e) => set({ text: e.target.value })} />
      )}
      {draft.mode === 'binary' && draft.binaryFormat !== 'file' && (
        <Textarea id={id} aria-label={draft.binaryFormat === 'hex' ? 'Payload hex' : 'Payload base64'} aria-invalid={!!error} aria-describedby={`${id}-msg`} rows={6}
          placeholder={draft.binaryFormat === 'hex' ? '89 50 4e 47 0d 0a 1a 0a' : 'iVBORw0KGgo='} value={draft.binary} onChange={(e) => set({ binary: e.target.value })} />
      )}
      {draft.mode === 'binary' && draft.binaryFormat === 'file' && (
        <label className="flex h-16 cursor-pointer items-center justify-center gap-2 rounded-md border border-dashed border-line-strong text-xs text-muted hover:bg-hover">
          <Icon name="upload" size={14} />
          {draft.file ? `${draft.file.name} · ${formatBytes(draft.file.size)}` : 'Choose a file (its bytes are the payload)'}
          <input id={id} type="file" aria-label="Payload file" className="sr-only"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (f) set({ file: { name: f.name, size: f.size, base64: bytesToBase64(new Uint8Array(await f.arrayBuffer())) } });
            }} />
        </label>
      )}
      <p id={`${id}-msg`} role={error ? 'alert' : undefined} className={cn('text-[11px] leading-snug', error ? 'text-danger' : 'text-subtle')}>
        {error ?? HINT[draft.mode]}
      </p>
    </div>
  );
}
