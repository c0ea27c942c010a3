'use client';

import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { TD } from '@/components/ui/table';
import type { LockDto } from '@/lib/contract/diagnostics';
import { paths } from '@/lib/paths';
import { releasable } from '@/lib/query/locks';
import { cn } from '@/lib/utils';
import { FindingCallouts } from './finding-callouts';
import { HolderState, LockHolder } from './lock-holder';
import { LockTtl } from './lock-ttl';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

interface Props {
  lock: LockDto;
  fetchedAt: number;
  showQueue: boolean;
  focused: boolean;
  /** Null in read-only mode: no Release column. */
  onRelease: ((lock: LockDto) => void) | null;
  columns: number;
}

/**
 * One lock: its key's parts, time left and holder, with its findings underneath in the API's
 * own words. Release is offered only when the holder is gone or finished.
 */
export function LockRow({ lock, fetchedAt, showQueue, focused, onRelease, columns }: Props) {
  const ref = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'center' });
  }, [focused]);
  const hasFindings = lock.findings.length > 0;
  const rowClass = cn(focused ? 'bg-selected' : 'group-hover:bg-hover', focused && 'shadow-[inset_2px_0_0_var(--accent)]');
  return (
    <tbody className="group border-b border-line last:border-b-0" data-lock-key={lock.key} data-focused={focused || undefined}>
      <tr ref={ref} className={rowClass}>
        {showQueue && (
          <TD className="max-w-40 truncate">
            <Link href={paths.queueLocks(lock.queue)} className="hover:underline" title={escapeText(lock.queue)}>
              <SafeText text={lock.queue} />
            </Link>
          </TD>
        )}
        <TD className="max-w-52 truncate font-medium" title={escapeText(lock.key)}>
          <SafeText text={lock.taskType} />

        </TD>
        <TD className="font-mono text-xs text-muted" title={lock.payloadMd5 === '' ? 'nil payload' : (lock.payloadMd5 ?? 'not an asynq lock key')}>
          {lock.payloadMd5 ? lock.payloadMd5.slice(0, 12) : <span className="text-subtle">{lock.payloadMd5 === '' ? 'nil' : '—'}</span>}
        </TD>
        <TD className="whitespace-nowrap">
          <LockTtl ttlSeconds={lock.ttlSeconds} fetchedAt={fetchedAt} expiresAt={lock.expiresAt} />
        </TD>
        <TD className="max-w-44">
          <LockHolder lock={lock} />
        </TD>
        <TD>
          <HolderState lock={lock} />
        </TD>
        {onRelease && (
          <TD className="w-24 px-1 text-right">
            {releasable(lock) && (
              <Button size="sm" variant="ghost" onClick={() => onRelease(lock)} aria-label={`Release lock ${lock.key}`}>
                Release
              </Button>
            )}
          </TD>
        )}
      </tr>
      {hasFindings && (
        <tr className={rowClass}>
          <td colSpan={columns} className="px-3 pb-2.5">
            <FindingCallouts findings={lock.findings} />
          </td>
        </tr>
      )}
    </tbody>
  );
}
