import type { Metadata } from 'next';
import { SchedulersView } from '@/components/schedulers/schedulers-view';
import { viewPage } from '../../_components/view-page';

export const metadata: Metadata = { title: 'Schedulers' };
export default viewPage(SchedulersView);
