'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { TH } from '@/components/ui/table';
import type { LockDto } from '@/lib/contract/diagnostics';
import { formatNumber } from '@/lib/utils';
import { LockRow } from './lock-row';
import type { LockRowData } from './use-lock-pages';

const PAGE = 100;

interface Props {
  rows: LockRowData[];
  showQueue: boolean;
  focusKey?: string | undefined;
  onRelease: ((lock: LockDto) => void) | null;
}

/** Locks, most troubled first, 100 at a time. Each lock is its own <tbody>: its row, then its findings. */
export function LocksTable({ rows, showQueue, focusKey, onRelease }: Props) {
  const [shown, setShown] = useState(PAGE);
  const focusAt = focusKey ? rows.findIndex((r) => r.lock.key === focusKey) : -1;
  const limit = Math.max(shown, focusAt + 1);
  const columns = 5 + (showQueue ? 1 : 0) + (onRelease ? 1 : 0);
  return (
    <>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left text-[13px]" aria-label="Unique locks">
          <thead>
            <tr>
              {showQueue && <TH>Queue</TH>}
              <TH>Task type</TH>
              <TH>Payload MD5</TH>
              <TH>Expires in</TH>
              <TH>Holder</TH>
              <TH>Holder state</TH>
              {onRelease && <TH className="w-24 px-1" aria-label="Actions" />}
            </tr>
          </thead>
          {rows.slice(0, limit).map(({ lock, fetchedAt }) => (
            <LockRow
              key={lock.key}
              lock={lock}
              fetchedAt={fetchedAt}
              showQueue={showQueue}
              focused={lock.key === focusKey}
              onRelease={onRelease}
              columns={columns}
            />
          ))}
        </table>
      </div>
      {rows.length > limit && (
        <div className="flex items-center justify-between border-t border-line px-3 py-2 text-xs text-muted">
          <span className="tabular">
            {formatNumber(limit)} of {formatNumber(rows.length)} shown
          </span>
          <Button size="sm" onClick={() => setShown(limit + PAGE)}>
            Show {formatNumber(Math.min(PAGE, rows.length - limit))} more
          </Button>
        </div>
      )}
    </>
  );
}
