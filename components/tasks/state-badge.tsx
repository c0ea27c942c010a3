import { Badge, type Tone } from '@/components/ui/badge';

const TONE: Record<string, Tone> = {
  pending: 'blue',
  active: 'green',
  scheduled: 'violet',
  retry: 'amber',
  archived: 'red',
  completed: 'neutral',
  aggregating: 'cyan',
};

export function StateBadge({ state }: { state: string }) {
  return <Badge tone={TONE[state] ?? 'neutral'}>{state}</Badge>;
}
