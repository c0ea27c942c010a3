'use client';

import { useRouter } from 'next/navigation';
import { useCallback } from 'react';
import { TaskRow } from '@/components/tasks/task-row';
import { useTableKeyboard } from '@/components/tasks/use-table-keyboard';
import { HeadRow, Table, TBody } from '@/components/ui/table';
import type { TaskDto, TaskStateDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';

const noop = () => {};

/** Matches from every queue and state: the task table with queue and state columns. Rows open the task. */
export function SearchResultsTable({ tasks, fetchedAt, resetKey }: { tasks: TaskDto[]; fetchedAt: number; resetKey: string }) {
  const router = useRouter();
  const onOpen = useCallback((i: number) => {
    const t = tasks[i];
    if (t) router.push(paths.task(t.queue, t.id));
  }, [tasks, router]);
  const { cursor } = useTableKeyboard({ rowCount: tasks.length, onOpen, onToggle: noop, resetKey });
  return (
    <Table aria-label="Search results">
      <HeadRow headings={['ID', 'Queue', 'State', 'Type', 'Payload', { label: 'Retried', className: 'text-right' }, 'Last error', 'When', 'Lock']} />
      <TBody>
        {tasks.map((t, i) => (
          <TaskRow
            key={`${t.queue}\n${t.id}`}
            task={t}
            state={t.state as TaskStateDto}
            index={i}
            active={i === cursor}
            selected={false}
            fetchedAt={fetchedAt}
            actions={null}
            onToggle={noop}
            onOpen={() => onOpen(i)}
            onAction={noop}
            showPlace
          />
        ))}
      </TBody>
    </Table>
  );
}
