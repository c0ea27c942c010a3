import type { Metadata } from 'next';
import { UniquenessView } from '@/components/locks/uniqueness-view';
import { viewPage } from '../../_components/view-page';

export const metadata: Metadata = { title: 'Uniqueness' };
export default viewPage(UniquenessView);
