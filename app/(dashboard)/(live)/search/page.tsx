import type { Metadata } from 'next';
import { SearchView } from '@/components/search/search-view';
import { viewPage } from '../../_components/view-page';

export const metadata: Metadata = { title: 'Search' };
export default viewPage(SearchView);
