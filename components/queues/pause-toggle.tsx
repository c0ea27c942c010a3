'use client';

import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { usePauseQueue } from '@/lib/query/queue-mutations';

/** Pause or resume processing; flips at once and flips back if the server refuses. */
export function PauseToggle({ qname, paused }: { qname: string; paused: boolean }) {
  const m = usePauseQueue(qname);
  return (
    <Button onClick={() => m.mutate(!paused)} disabled={m.isPending} aria-pressed={paused}>
      <Icon name={paused ? 'play' : 'pause'} size={13} />
      {paused ? 'Resume' : 'Pause'}
    </Button>
  );
}
