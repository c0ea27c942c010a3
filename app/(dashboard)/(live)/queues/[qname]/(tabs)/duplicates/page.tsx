import type { Metadata } from 'next';
import { DuplicateScan } from '@/components/duplicates/duplicate-scan';
import { queueName, type QueueProps } from '../../queue-params';
import { escapeText } from '@/lib/display-text';

export async function generateMetadata({ params }: QueueProps): Promise<Metadata> {
  return { title: escapeText(`Duplicates · ${await queueName(params)}`) };

}

export default async function DuplicatesPage({ params }: QueueProps) {
  return <DuplicateScan qname={await queueName(params)} />;
}
