import type { Metadata } from 'next';
import { ServersView } from '@/components/servers/servers-view';
import { viewPage } from '../../_components/view-page';

export const metadata: Metadata = { title: 'Servers' };
export default viewPage(ServersView);
