/**
 * The one list of task actions and what is derived from it: the route schemas' accepted values
 * and error texts (part of the HTTP contract), and the actions the UI offers per state.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_ICON, ACTION_LABEL, allowedActions, allowedBulkActions } from '@/components/tasks/task-actions';
import { bulkActionSchema, bulkBodySchema, taskActionSchema } from '@/lib/contract/mutations';
import { searchActBodySchema } from '@/lib/contract/search';
import { BULK_ACTIONS, POST_ACTIONS, TASK_ACTIONS } from '@/lib/contract/task-actions';
import { TASK_STATES } from '@/lib/url-state';

const issue = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('task actions', () => {
  it('derives the bulk and POSTed actions from the one list', () => {
    expect(TASK_ACTIONS).toEqual(['run', 'archive', 'delete', 'cancel']);
    expect(BULK_ACTIONS).toEqual(['run', 'archive', 'delete']);
    expect(POST_ACTIONS).toEqual(['run', 'archive', 'cancel']);
  });

  it("a task's /:action takes run, archive and cancel, and says so otherwise", () => {
    for (const a of ['run', 'archive', 'cancel']) expect(taskActionSchema.parse(a)).toBe(a);
    expect(issue(taskActionSchema.safeParse('delete'))).toBe('action must be run, archive or cancel');
  });

  it('bulk and search act requests take run, archive and delete, and say so otherwise', () => {
    for (const a of ['run', 'archive', 'delete']) expect(bulkActionSchema.parse(a)).toBe(a);
    expect(issue(bulkBodySchema.safeParse({ action: 'cancel', state: 'pending' }))).toBe('action must be run, archive or delete');
    expect(issue(searchActBodySchema.safeParse({ filter: {}, action: 'cancel' }))).toBe('action must be run, archive or delete');
  });

  it('every state offers only known actions, bulk never cancel, and each has its words and icon', () => {
    expect(allowedActions('active')).toEqual(['cancel']);
    expect(allowedBulkActions('active')).toEqual([]);
    expect(allowedBulkActions('completed')).toEqual(['delete']);
    for (const s of TASK_STATES) {
      for (const a of allowedActions(s)) expect(TASK_ACTIONS).toContain(a);
      expect(allowedBulkActions(s)).not.toContain('cancel');
    }
    for (const a of TASK_ACTIONS) {
      expect(ACTION_LABEL[a].verb).toBeTruthy();
      expect(ACTION_ICON[a]).toBeTruthy();
    }
  });
});
