import { formatNumber } from '@/lib/utils';

/** "2 retry · 3 archived", leaving out a zero. */
export function failedCounts(retry: number, archived: number): string {
  const parts = [retry > 0 && `${formatNumber(retry)} retry`, archived > 0 && `${formatNumber(archived)} archived`].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'none';
}
