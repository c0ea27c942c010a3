import type { Metadata } from 'next';
import { TaskView } from '@/components/task-detail/task-view';
import { decodeSegment } from '@/lib/paths';
import { escapeText } from '@/lib/display-text';

interface Props {
  /** Still percent-encoded: see decodeSegment. */
  params: Promise<{ qname: string; taskId: string }>;
}

async function names(params: Props['params']) {
  const p = await params;
  return { qname: decodeSegment(p.qname), taskId: decodeSegment(p.taskId) };
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { qname, taskId } = await names(params);
  return { title: escapeText(`${taskId} · ${qname}`) };

}

export default async function TaskPage({ params }: Props) {
  const { qname, taskId } = await names(params);
  return <TaskView key={`${qname}\n${taskId}`} qname={qname} taskId={taskId} />;
}
