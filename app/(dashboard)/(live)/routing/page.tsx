import type { Metadata } from 'next';
import { RoutingView } from '@/components/routing/routing-view';
import { viewPage } from '../../_components/view-page';

export const metadata: Metadata = { title: 'Routing' };
export default viewPage(RoutingView);
