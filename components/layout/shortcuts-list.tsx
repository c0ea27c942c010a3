'use client';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Kbd } from '@/components/ui/kbd';
import { SHORTCUTS } from './shortcuts';

/** The `?` dialog: every shortcut, from the table the handlers use. */
export function ShortcutsList({ onClose }: { onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} title="Keyboard shortcuts" className="w-[min(34rem,calc(100vw-2rem))]" footer={<Button onClick={onClose}>Close</Button>}>
      <table className="w-full border-collapse text-left text-[13px]" aria-label="Keyboard shortcuts">
        <thead>
          <tr className="text-xs text-muted">
            <th className="py-1 pr-3 font-medium">Keys</th>
            <th className="py-1 pr-3 font-medium">Does</th>
            <th className="py-1 font-medium">Where</th>
          </tr>
        </thead>
        <tbody>
          {Object.values(SHORTCUTS).map((s) => (
            <tr key={s.does} className="border-t border-line">
              <td className="py-1.5 pr-3 whitespace-nowrap">
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && <span className="px-1 text-muted">or</span>}
                    <Kbd>{k}</Kbd>
                  </span>
                ))}
              </td>
              <td className="py-1.5 pr-3 text-fg">{s.does}</td>
              <td className="py-1.5 text-muted">{s.where}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs">Esc closes any dialog, this one too.</p>
    </Dialog>
  );
}
