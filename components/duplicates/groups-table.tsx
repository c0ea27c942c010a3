'use client';

import { useState } from 'react';
import { TH } from '@/components/ui/table';
import type { DuplicateGroupDto } from '@/lib/contract/diagnostics';
import { GroupRow } from './group-row';

interface Props {
  qname: string;
  groups: DuplicateGroupDto[];
  onKeepOne: ((groups: DuplicateGroupDto[]) => void) | null;
}

/** Duplicate groups, largest first; each opens into its tasks. */
export function GroupsTable({ qname, groups, onKeepOne }: Props) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-[13px]" aria-label="Duplicate groups">
        <thead>
          <tr>
            <TH className="w-6 pr-0" />
            <TH>Kind</TH>
            <TH>Task type</TH>
            <TH className="text-right">Tasks</TH>
            <TH>Why they are duplicates</TH>
            <TH>States</TH>
            {onKeepOne && <TH className="w-28 px-1" aria-label="Actions" />}
          </tr>
        </thead>
        {groups.map((g) => (
          <GroupRow
            key={g.id}
            qname={qname}
            group={g}
            open={open.has(g.id)}
            onToggle={() => toggle(g.id)}
            onKeepOne={onKeepOne && (() => onKeepOne([g]))}
          />
        ))}
      </table>
    </div>
  );
}
