'use client';

import { useState } from 'react';
import { EmptyState } from '@/components/common/states';
import { Button } from '@/components/ui/button';
import { Table, TBody, TH, THead, TR } from '@/components/ui/table';
import { formatNumber } from '@/lib/utils';
import { RouteRow, type Route } from './route-row';
import type { TypeRow } from './type-rows';

/** Rows drawn at first: a Redis can hold thousands of types, and the filters narrow them anyway. */
const FIRST = 300;

/** Every listed type with its route. */
export function RoutesTable({ rows }: { rows: { row: TypeRow; route: Route }[] }) {
  const [shown, setShown] = useState(FIRST);
  if (rows.length === 0) return <EmptyState title="No task type matches this filter" />;
  return (
    <>
      <Table aria-label="Routes">
        <THead>
          <TR>
            <TH>Task type</TH>
            <TH>Route</TH>
            <TH>Pattern</TH>
            <TH>Tasks in Redis</TH>
            <TH>Queues</TH>
          </TR>
        </THead>
        <TBody>
          {rows.slice(0, shown).map(({ row, route }) => (
            <RouteRow key={row.taskType} row={row} route={route} />
          ))}
        </TBody>
      </Table>
      {rows.length > shown && (
        <div className="border-t border-line px-3 py-2">
          <Button size="sm" onClick={() => setShown(rows.length)}>
            Show the other {formatNumber(rows.length - shown)} types
          </Button>
        </div>
      )}
    </>
  );
}
