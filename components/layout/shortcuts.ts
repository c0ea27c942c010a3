/**
 * Every keyboard shortcut of the console, in one list: the handlers test a key with `matches`
 * and the `?` dialog lists this same table, so the two cannot drift apart.
 */

/** A key typed into a field or an open dialog belongs to it, not to a page shortcut. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || !!target.closest('dialog[open]');
}

const plain = (e: KeyboardEvent) => !e.metaKey && !e.ctrlKey && !e.altKey;

export interface Shortcut {
  /** The keys as the dialog shows them; any one of them does it. */
  keys: string[];
  does: string;
  where: string;
  matches: (e: KeyboardEvent) => boolean;
}

export const SHORTCUTS = {
  search: { keys: ['/'], does: 'Focus the search box', where: 'Every page', matches: (e) => plain(e) && e.key === '/' && !typingIn(e.target) },
  searchCombo: {
    keys: ['Ctrl K', '⌘ K'],
    does: 'Focus the search box, even while typing',
    where: 'Every page',
    matches: (e) => (e.metaKey || e.ctrlKey) && !e.altKey && e.key.toLowerCase() === 'k',
  },
  help: { keys: ['?'], does: 'Show these shortcuts', where: 'Every page', matches: (e) => !e.ctrlKey && !e.metaKey && !e.altKey && e.key === '?' && !typingIn(e.target) },
  down: { keys: ['j', '↓'], does: 'Move to the next task', where: 'Task tables and search results', matches: (e) => e.key === 'j' || e.key === 'ArrowDown' },
  up: { keys: ['k', '↑'], does: 'Move to the previous task', where: 'Task tables and search results', matches: (e) => e.key === 'k' || e.key === 'ArrowUp' },
  open: { keys: ['Enter'], does: 'Open the task under the cursor', where: 'Task tables and search results', matches: (e) => e.key === 'Enter' },
  select: { keys: ['x'], does: 'Select the task under the cursor', where: 'Task tables', matches: (e) => e.key === 'x' },
} satisfies Record<string, Shortcut>;
