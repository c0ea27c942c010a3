'use client';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import type { RoutingPatternsDto } from '@/lib/contract/triage';
import { plural } from '@/components/tasks/task-actions';
import type { ParsedPatterns } from './parse-patterns';
import type { PatternsOrigin } from './use-patterns';
import { SafeText } from '@/components/ui/safe-text';

const PLACEHOLDER = ['email:welcome', 'email', 'report:daily', 'image:'].join('\n');

function originText(origin: PatternsOrigin, file: RoutingPatternsDto | null | undefined): string {
  if (origin === 'link') return 'from the link';
  if (origin === 'saved') return 'saved in this browser';
  if (origin === 'file') return `from ${file?.source ?? 'the routing file'}`;
  return 'kept in the URL and this browser';
}

interface Props {
  text: string;
  origin: PatternsOrigin;
  parsed: ParsedPatterns;
  file: RoutingPatternsDto | null | undefined;
  /** The server's refusal of the pattern set, with its line. */
  error: string | null;
  onChange: (text: string) => void;
  onLoadFile: () => void;
}

/** The patterns a deployment registers, pasted or loaded from the server's routing file. */
export function PatternsEditor({ text, origin, parsed, file, error, onChange, onLoadFile }: Props) {
  const problem = parsed.problem ?? error;
  return (
    <div className="flex flex-col gap-3">
      <Field
        id="routing-patterns"
        label="Patterns, one per line"
        error={problem}
        hint={`${plural(parsed.patterns.length, 'pattern')} · ${originText(origin, file)}`}
      >
        <Textarea
          id="routing-patterns"
          value={text}
          onChange={(e) => onChange(e.target.value)}
          placeholder={PLACEHOLDER}
          rows={12}
          aria-describedby="routing-patterns-msg"
          aria-invalid={!!problem}
          className="min-h-56"
        />
      </Field>
      {parsed.padded.length > 0 && (
        <p className="text-xs text-warning">
          {parsed.padded.length === 1 ? 'Line' : 'Lines'} {parsed.padded.join(', ')} {parsed.padded.length === 1 ? 'starts or ends' : 'start or end'} with a space:
          asynq registers a pattern exactly as given, spaces included.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        {file?.source && file.patterns.length > 0 && (
          <Button size="sm" onClick={onLoadFile}>
            Load the routing file ({plural(file.patterns.length, 'pattern')})
          </Button>
        )}
        {text !== '' && (
          <Button size="sm" variant="ghost" onClick={() => onChange('')}>
            Clear
          </Button>
        )}
      </div>
      {file?.problem && <p className="text-xs text-danger"><SafeText text={file.problem} /></p>}

      <div className="flex flex-col gap-1.5 text-xs text-muted">
        <p>
          Paste what your workers pass to <code className="font-mono text-fg">mux.Handle</code> / <code className="font-mono text-fg">HandleFunc</code>, or
          the JSON array of a routing file.
          {file?.source === null && (
            <> Started with <code className="font-mono text-fg">ASYNQLENS_ROUTING_FILE=patterns.json</code>, asynqlens loads them from that file.</>
          )}
        </p>
        <p>
          asynq runs the handler of the pattern equal to the task type, else of the longest pattern the type starts with. Prefixes are plain text:
          <code className="font-mono text-fg"> email</code> also catches <code className="font-mono text-fg">emailextra</code>; end a pattern with
          <code className="font-mono text-fg"> :</code> to keep to one segment.
        </p>
      </div>
    </div>
  );
}
