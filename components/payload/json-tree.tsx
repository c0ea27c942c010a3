'use client';

import { useState } from 'react';
import { Icon } from '@/components/ui/icons';
import { SafeText } from '@/components/ui/safe-text';

const PAGE = 100;
const LONG_STRING = 300;

function Primitive({ value }: { value: unknown }) {
  const [full, setFull] = useState(false);
  if (typeof value === 'string') {
    const s = JSON.stringify(value);
    const cut = !full && s.length > LONG_STRING;
    return (
      <span className="break-all text-emerald-700 dark:text-emerald-300">
        <SafeText text={cut ? `${s.slice(0, LONG_STRING)}…` : s} />
        {cut && (
          <button type="button" className="ml-1 text-accent hover:underline" onClick={() => setFull(true)}>
            +{(s.length - LONG_STRING).toLocaleString('en-US')} chars
          </button>
        )}
      </span>
    );
  }
  if (typeof value === 'number') return <span className="text-sky-700 dark:text-sky-300">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="text-violet-700 dark:text-violet-300">{String(value)}</span>;
  return <span className="text-subtle">null</span>;
}

interface NodeProps {
  name: string | number | null;
  value: unknown;
  depth: number;
}

/**
 * One key and its value. Containers open by default only near the root and when small, and
 * list their children a hundred at a time: a huge array never renders all at once.
 */
function JsonNode({ name, value, depth }: NodeProps) {
  const isContainer = value !== null && typeof value === 'object';
  const entries = isContainer ? Object.entries(value as Record<string, unknown>) : [];
  const [open, setOpen] = useState(depth < 2 && entries.length <= 50);
  const [limit, setLimit] = useState(PAGE);
  const isArray = Array.isArray(value);
  const label =
    name === null ? null : (
      <span className="text-fg">{typeof name === 'number' ? name : <SafeText text={JSON.stringify(name)} />}<span className="text-subtle">: </span></span>

    );
  if (!isContainer) {
    return (
      <div className="pl-4">
        {label}
        <Primitive value={value} />
      </div>
    );
  }
  const [l, r] = isArray ? ['[', ']'] : ['{', '}'];
  return (
    <div className={depth === 0 ? undefined : 'pl-4'}>
      <button type="button" onClick={() => setOpen(!open)} aria-expanded={open} className="-ml-4 inline-flex items-center text-left hover:bg-hover">
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} className="mr-1 text-subtle" />
        {label}
        <span className="text-subtle">
          {l}
          {!open && ` ${entries.length} ${isArray ? 'items' : 'keys'} ${r}`}
        </span>
      </button>
      {open && (
        <>
          {entries.slice(0, limit).map(([k, v]) => (
            <JsonNode key={k} name={isArray ? Number(k) : k} value={v} depth={depth + 1} />
          ))}
          {entries.length > limit && (
            <button type="button" className="pl-4 text-accent hover:underline" onClick={() => setLimit((n) => n + PAGE * 5)}>
              Show more ({(entries.length - limit).toLocaleString('en-US')} left)
            </button>
          )}
          <div className="text-subtle">{r}</div>
        </>
      )}
    </div>
  );
}

export function JsonTree({ value }: { value: unknown }) {
  return (
    <div data-testid="payload-json" className="max-h-[32rem] overflow-auto p-3 pl-7 font-mono text-xs leading-relaxed">
      <JsonNode name={null} value={value} depth={0} />
    </div>
  );
}
