import { Badge, type Tone } from '@/components/ui/badge';
import type { Verdict } from '@/lib/contract/routing-verdicts';

/** The verdict's words and colour: a conflict in the warning colour, a sure failure in red. */
export const VERDICT_LABEL: Record<Verdict, string> = {
  handled: 'handled',
  not_handled: 'not handled',
  aggregated: 'aggregated',
  conflict: 'conflict',
  unknown: 'unknown',
};

const TONE: Record<Verdict, Tone> = { handled: 'green', not_handled: 'red', aggregated: 'blue', conflict: 'amber', unknown: 'neutral' };

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return (
    <Badge tone={TONE[verdict]} data-testid="verdict-badge" data-verdict={verdict}>
      {VERDICT_LABEL[verdict]}
    </Badge>
  );
}
