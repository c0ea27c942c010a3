/**
 * The dataset of the read benchmark: the performance note's D-deep (one queue with 1,000,000
 * pending tasks, msg ≈ 200 B) next to 50 small queues with a few tasks in every listed state.
 */
import { messageParts, taskId, type SeedState, type TaskBatch } from './task-message';

export const BIG_QUEUE = 'bench:big';
export const SMALL_QUEUES = 50;

const SMALL_SHAPE: [SeedState, number][] = [['pending', 20], ['scheduled', 3], ['retry', 2], ['archived', 2]];
const STATE_DIGIT: Record<SeedState, number> = { pending: 0, scheduled: 1, retry: 2, archived: 3 };

/** UUID-shaped IDs (asynq's are UUIDs), unique per queue and state. */
function idFormat(tag: number, state: SeedState): string {
  return `${tag.toString(16).padStart(8, '0')}-0000-4000-8${STATE_DIGIT[state]}00-%012d`;
}

export interface ReadsDataset {
  batches: TaskBatch[];
  big: TaskBatch;
  /** The task the detail read opens: the middle of the big queue. */
  detailId: string;
  /** Tasks to check byte for byte after seeding: [batch, index]. */
  samples: [TaskBatch, number][];
  summary: string;
}

export function readsDataset(bigTasks: number): ReadsDataset {
  const big: TaskBatch = { queue: BIG_QUEUE, state: 'pending', count: bigTasks, idFormat: idFormat(0xb1600000, 'pending') };
  const small = Array.from({ length: SMALL_QUEUES }, (_, i) => `bench:small:${String(i).padStart(2, '0')}`).flatMap(
    (queue, i) => SMALL_SHAPE.map(([state, count]) => ({ queue, state, count, idFormat: idFormat(0xa0000000 + i, state) })),
  );
  const perSmall = SMALL_SHAPE.map(([s, n]) => `${n} ${s}`).join(', ');
  const { prefix, suffix } = messageParts(big);
  const msgBytes = prefix.length + 2 + taskId(big, 1).length + suffix.length; // + field 3's tag and length
  return {
    batches: [big, ...small],
    big,
    detailId: taskId(big, Math.ceil(bigTasks / 2)),
    samples: [[big, 1], [big, Math.ceil(bigTasks / 2)], [big, bigTasks], ...small.slice(-4).map((b): [TaskBatch, number] => [b, b.count])],
    summary: `\`${BIG_QUEUE}\`: ${bigTasks.toLocaleString('en-US')} pending; ${SMALL_QUEUES} queues \`bench:small:00\`..\`${SMALL_QUEUES - 1}\`: ${perSmall} each; pending msg ${msgBytes} B`,
  };
}
