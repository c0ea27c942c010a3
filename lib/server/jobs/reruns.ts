import 'server-only';
import type { ActiveRerunDto, RerunProgressDto } from '@/lib/contract/triage';

/**
 * The re-runs running in this console process, with their latest progress, so the overview's
 * banner keeps the type and shows how far its re-run got instead of losing it while the
 * failure scan recounts. Per process: another instance behind a load balancer shows its own.
 */
const active = new Map<string, ActiveRerunDto>();

export function trackRerun(queue: string, taskType: string) {
  const key = `${queue}\n${taskType}`;
  const entry: ActiveRerunDto = { queue, taskType, startedAt: new Date().toISOString(), progress: null };
  active.set(key, entry);
  return {
    progress: (p: RerunProgressDto) => {
      entry.progress = p;
    },
    end: () => {
      if (active.get(key) === entry) active.delete(key);
    },
  };
}

export const activeReruns = (): ActiveRerunDto[] => [...active.values()].map((r) => ({ ...r }));
