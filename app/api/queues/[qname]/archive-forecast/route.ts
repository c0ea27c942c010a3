import { archiveForecastQuery } from '@/lib/contract/archive-forecast';
import { queueParams } from '@/lib/contract/common';
import { route } from '@/lib/server/http/route';
import { forecastArchive } from '@/lib/server/services/archive-forecast';

export const dynamic = 'force-dynamic';

export const GET = route({ params: queueParams, query: archiveForecastQuery }, ({ params, query }) =>
  forecastArchive(params.qname, query.adding),
);
