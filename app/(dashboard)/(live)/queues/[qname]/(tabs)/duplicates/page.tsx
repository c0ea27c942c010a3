import type { Metadata } from 'next';
import { DuplicateScan } from '@/components/duplicates/duplicate-scan';
import { queueName, type QueueProps } from '../../queue-params';

export async function generateMetadata({ params }: QueueProps): Promise<Metadata> {
  return { title: `Duplicates · ${await queueName(params)}` };
}

export default async function DuplicatesPage({ params }: QueueProps) {
  return <DuplicateScan qname={await queueName(params)} />;
}
