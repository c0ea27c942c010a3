import { decodeSegment } from '@/lib/paths';

/** What every page and layout under /queues/[qname] receives: the name still percent-encoded. */
export interface QueueProps {
  params: Promise<{ qname: string }>;
}

/** The queue's name, decoded once (see decodeSegment). */
export async function queueName(params: QueueProps['params']): Promise<string> {
  return decodeSegment((await params).qname);
}
