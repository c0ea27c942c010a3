import type { Metadata } from 'next';
import { EnqueueView } from '@/components/enqueue/enqueue-view';
import { viewPage } from '../../_components/view-page';

export const metadata: Metadata = { title: 'Enqueue' };
export default viewPage(EnqueueView);
