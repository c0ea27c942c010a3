'use client';

import { Icon } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { deleteSavedView, useSavedViews } from '@/lib/query/saved-views';

/** This browser's saved views, each to open or delete; `here` marks the one on screen. */
export default function SavedViewsList({ here, onOpen }: { here: string; onOpen: () => void }) {
  const saved = useSavedViews();
  if (saved.length === 0) return <p className="px-2 py-3 text-xs text-muted">No saved views. Views are kept in this browser only.</p>;
  return (
    <ul aria-label="Saved views">
      {saved.map((v) => (
        <li key={v.name} className="flex items-center gap-1 rounded hover:bg-hover">
          <Link
            href={v.url}
            className="min-w-0 flex-1 truncate px-2 py-1.5 text-[13px]"
            title={v.url}
            aria-current={v.url === here ? 'page' : undefined}
            onClick={onOpen}
          >
            {v.name}
          </Link>
          <button
            type="button"
            aria-label={`Delete saved view ${v.name}`}
            onClick={() => deleteSavedView(v.name)}
            className="grid size-6 place-items-center rounded text-subtle hover:text-danger"
          >
            <Icon name="x" size={11} />
          </button>
        </li>
      ))}
    </ul>
  );
}
