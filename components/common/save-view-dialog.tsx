'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { saveView } from '@/lib/query/saved-views';

/** Names the view at `url` and saves it (this browser's localStorage). */
export default function SaveViewDialog({ url, suggestedName, onClose }: { url: string; suggestedName: string; onClose: () => void }) {
  const [name, setName] = useState(suggestedName.slice(0, 80));
  return (
    <Dialog
      open
      onClose={onClose}
      title="Save this view"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="save-view" disabled={name.trim() === ''}>
            Save
          </Button>
        </>
      }
    >
      <form id="save-view" className="flex flex-col gap-2" onSubmit={(e) => { e.preventDefault(); saveView(name.trim(), url); onClose(); }}>
        <label htmlFor="save-view-name" className="text-xs">Name</label>
        <Input id="save-view-name" autoFocus value={name} onChange={(e) => setName(e.target.value)} />
        <p className="text-xs break-all text-subtle">{url}</p>
      </form>
    </Dialog>
  );
}
