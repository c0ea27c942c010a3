import type { Metadata } from 'next';
import { QueueView } from '@/components/queues/queue-view';
import { queueName, type QueueProps } from '../queue-params';
import { escapeText } from '@/lib/display-text';

export async function generateMetadata({ params }: QueueProps): Promise<Metadata> {
  return { title: escapeText(await queueName(params)) };

}

export default async function QueuePage({ params }: QueueProps) {
  return <QueueView qname={await queueName(params)} />;
}
