import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/utils';
import { plural } from '@/components/tasks/task-actions';

interface Props {
  count: number;
  complete: boolean;
  scanning: boolean;
  onReadMore: () => void;
}

/** How far the lock scan got: still reading, every lock, or paused at the bound with more to read. */
export function LockListStatus({ count, complete, scanning, onReadMore }: Props) {
  if (complete) return <span className="tabular text-xs text-muted">{plural(count, 'lock')}</span>;
  if (scanning) return <span className="tabular text-xs text-muted">Reading locks… {formatNumber(count)} so far</span>;
  return (
    <span className="flex items-center gap-2 text-xs text-muted">
      <span className="tabular">First {formatNumber(count)} locks; there are more.</span>
      <Button size="sm" onClick={onReadMore}>
        Read more
      </Button>
    </span>
  );
}
