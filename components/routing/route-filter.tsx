import { Tabs } from '@/components/ui/tabs';
import type { RouteFilter as Filter } from '@/lib/url-state';
import type { Route } from './route-row';
import type { TypeRow } from './type-rows';

const LABEL: Record<Filter, string> = {
  all: 'All',
  warning: 'Prefix warnings',
  none: 'No route',
  prefix: 'Prefix',
  exact: 'Exact',
};

const TEST: Record<Filter, (row: TypeRow, route: Route) => boolean> = {
  all: () => true,
  warning: (_row, route) => route.warning !== null,
  none: (_row, route) => route.match === 'none',
  prefix: (_row, route) => route.match === 'prefix',
  exact: (_row, route) => route.match === 'exact',
};

export const matchesFilter = (filter: Filter, row: TypeRow, route: Route): boolean => TEST[filter](row, route);

interface Props {
  rows: { row: TypeRow; route: Route }[];
  active: Filter;
  href: (filter: Filter) => string;
  onSelect: (filter: Filter) => void;
}

/** Tabs over the tested routes, each with its count; the warnings first after All. */
export function RouteFilterTabs({ rows, active, href, onSelect }: Props) {
  const items = (Object.keys(LABEL) as Filter[]).map((f) => ({
    key: f,
    label: LABEL[f],
    count: rows.filter(({ row, route }) => TEST[f](row, route)).length,
    href: href(f),
  }));
  return <Tabs label="Filter routes" items={items} active={active} onSelect={(k) => onSelect(k as Filter)} />;
}
