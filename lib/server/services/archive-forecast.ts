import 'server-only';
import type { ArchiveForecastDto } from '@/lib/contract/archive-forecast';
import { getInspector } from '../redis/client';

/**
 * How many archived tasks asynq's limits delete if `adding` tasks of `qname` are archived now.
 * One Redis round trip (three O(log N) commands); not shared between tabs, as each asks its own N.
 */
export async function forecastArchive(qname: string, adding: number): Promise<ArchiveForecastDto> {
  return getInspector().archiveForecast(qname, adding);
}
