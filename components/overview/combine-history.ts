import type { DayPoint } from '@/components/charts/history-chart';
import type { HistoryDto, QueueStatsDto } from '@/lib/contract/queues';

/**
 * Sums queues' daily counters per date, oldest first. Past days come from the history reads;
 * today's bar is replaced by the live stats' counters, which the history read may predate.
 */
export function combineHistory(histories: HistoryDto[], live: QueueStatsDto[], now = new Date()): DayPoint[] {
  const byDate = new Map<string, DayPoint>();
  for (const h of histories) {
    for (const d of h.days) {
      const p = byDate.get(d.date) ?? { date: d.date, processed: 0, failed: 0 };
      byDate.set(d.date, { date: d.date, processed: p.processed + d.processed, failed: p.failed + d.failed });
    }
  }
  const today = now.toISOString().slice(0, 10);
  if (byDate.has(today)) {
    byDate.set(today, {
      date: today,
      processed: live.reduce((n, q) => n + q.processed, 0),
      failed: live.reduce((n, q) => n + q.failed, 0),
    });
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** "All queues" sums at most this many (the busiest): one history read per queue. */
export const MAX_AGGREGATED = 25;

/** The queues the chart sums: one by name, or the busiest MAX_AGGREGATED. */
export function chartQueues(queues: QueueStatsDto[], chart: string): QueueStatsDto[] {
  // An unreadable queue (a problem row) has no counters to chart; asking for them would fail
  // the whole chart.
  const readable = queues.filter((q) => !q.problem);
  if (chart) return readable.filter((q) => q.queue === chart);
  return readable.sort((a, b) => b.processedTotal + b.size - (a.processedTotal + a.size)).slice(0, MAX_AGGREGATED);
}
