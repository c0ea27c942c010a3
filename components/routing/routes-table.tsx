import { EmptyState } from '@/components/common/states';
import { Table, TBody, TH, THead, TR } from '@/components/ui/table';
import { RouteRow, type Route } from './route-row';
import type { TypeRow } from './type-rows';

/** Every listed type with its route. */
export function RoutesTable({ rows }: { rows: { row: TypeRow; route: Route }[] }) {
  if (rows.length === 0) return <EmptyState title="No task type matches this filter" />;
  return (
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
        {rows.map(({ row, route }) => (
          <RouteRow key={row.taskType} row={row} route={route} />
        ))}
      </TBody>
    </Table>
  );
}
