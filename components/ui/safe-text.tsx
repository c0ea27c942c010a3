import { Fragment } from 'react';
import { codePointLabel, escapeInvisible, hasInvisible, type DisplayOptions } from '@/lib/display-text';

interface Props extends DisplayOptions {
  /** Untrusted text: a queue name, task type or ID, group, host, header, error or payload. */
  text: string;
}

/**
 * Untrusted text with bidi controls, zero-width, format and control characters shown as
 * visible escapes (`\u202E`) in a distinct style, each with its code point as a tooltip. Only
 * the display changes: links, API calls and copy buttons keep using the raw value. Clean text
 * (nearly all of it) costs one regex test and renders as a bare string.
 */
export function SafeText({ text, keepLineBreaks }: Props) {
  const opts = { keepLineBreaks };
  if (!hasInvisible(text, opts)) return text;
  return (
    <bdi data-escaped-text="">
      {escapeInvisible(text, opts).map((s, i) =>
        s.escaped ? (
          <span
            key={i}
            data-escaped={codePointLabel(s.codePoint)}
            title={`${codePointLabel(s.codePoint)}: an invisible or control character, shown escaped`}
            className="mx-px inline-block rounded-sm bg-warning-soft px-0.5 font-mono text-[0.9em] text-warning ring-1 ring-warning/30 ring-inset"
          >
            {s.text}
          </span>
        ) : (
          <Fragment key={i}>{s.text}</Fragment>
        ),
      )}
    </bdi>
  );
}
