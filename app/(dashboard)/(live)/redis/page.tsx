import type { Metadata } from 'next';
import { RedisView } from '@/components/redis/redis-view';
import { viewPage } from '../../_components/view-page';

export const metadata: Metadata = { title: 'Redis' };
export default viewPage(RedisView);
