import type { Metadata } from 'next';
import { FailuresView } from '@/components/failures/failures-view';
import { viewPage } from '../../_components/view-page';

export const metadata: Metadata = { title: 'Failures' };
export default viewPage(FailuresView);
