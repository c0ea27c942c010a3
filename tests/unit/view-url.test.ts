/**
 * View URLs. A queue view: the order by state (archived and completed newest first unless the URL
 * says otherwise, the default left out of the URL), and the type control's edits of the filter
 * query (one `type:` word, the other words kept, quoting as the search language reads it). The
 * overview: the queue table's sort and order, and what a click on a column header asks for.
 */
import { describe, expect, it } from 'vitest';
import { typeFilterOf, withTypeFilter } from '@/components/tasks/type-filter';
import { nextQueueOrder, overviewQuery, parseOverviewView, parseQueueView, taskOrderParam } from '@/lib/url-state';

const view = (qs: string) => parseQueueView(new URLSearchParams(qs));

describe('queue view order', () => {
  it.each([
    ['state=pending', 'asc'],
    ['state=scheduled', 'asc'],
    ['state=archived', 'desc'],
    ['state=completed', 'desc'],
    ['state=archived&order=asc', 'asc'],
    ['state=retry&order=desc', 'desc'],
    ['state=archived&order=sideways', 'desc'],
    ['', 'asc'],
  ])('%s reads as %s', (qs, order) => {
    expect(view(qs).order).toBe(order);
  });

  it('keeps only a non-default order in the URL', () => {
    expect(taskOrderParam('archived', 'desc')).toBeNull();
    expect(taskOrderParam('archived', 'asc')).toBe('asc');
    expect(taskOrderParam('pending', 'desc')).toBe('desc');
    expect(taskOrderParam('pending', 'asc')).toBeNull();
  });

  it('reads every part of a shared link back', () => {
    expect(view('state=retry&page=4&size=50&order=desc&q=type%3Aemail+user_id%3A42')).toEqual({
      state: 'retry', page: 4, size: 50, group: undefined, q: 'type:email user_id:42', order: 'desc',
    });
  });
});

describe('type filter in the query', () => {
  it.each([
    ['', ''],
    ['type:email:welcome', 'email:welcome'],
    ['user_id:42 type:email', 'email'],
    ['type:"a b"', 'a b'],
    ['type:email:*', ''],
    ['subtype:x', ''],
  ])('%j names type %j', (q, type) => {
    expect(typeFilterOf(q)).toBe(type);
  });

  it.each([
    ['', 'email', 'type:email'],
    ['user_id:42', 'email', 'type:email user_id:42'],
    ['type:sms user_id:42', 'email', 'type:email user_id:42'],
    ['user_id:42 type:sms', '', 'user_id:42'],
    ['type:sms', '', ''],
    ['amount>1', 'a "b"', 'type:"a \\"b\\"" amount>1'],
    ['subtype:x', 'email', 'type:email subtype:x'],
  ])('%j with type %j is %j', (q, type, out) => {
    expect(withTypeFilter(q, type)).toBe(out);
    if (type) expect(typeFilterOf(out)).toBe(type);
  });
});

describe('overview view', () => {
  const overview = (qs: string) => parseOverviewView(new URLSearchParams(qs));

  it('reads sort and order back, falling back to by name ascending', () => {
    expect(overview('sort=archived&order=desc&page=2&q=mail')).toMatchObject({ sort: 'archived', order: 'desc', page: 2, q: 'mail' });
    expect(overview('sort=bytes&order=up')).toMatchObject({ sort: 'name', order: 'asc' });
  });

  it('leaves defaults out of the address', () => {
    expect(overviewQuery(overview(''))).toEqual({ days: undefined, chart: '', page: undefined, q: '', sort: undefined, order: undefined });
    expect(overviewQuery(overview('sort=latency&order=desc'))).toMatchObject({ sort: 'latency', order: 'desc' });
  });

  it.each([
    [{ sort: 'name', order: 'asc' }, 'name', { sort: 'name', order: 'desc' }],
    [{ sort: 'name', order: 'asc' }, 'retry', { sort: 'retry', order: 'desc' }],
    [{ sort: 'retry', order: 'desc' }, 'retry', { sort: 'retry', order: 'asc' }],
    [{ sort: 'retry', order: 'asc' }, 'name', { sort: 'name', order: 'asc' }],
  ] as const)('from %j a click on %s gives %j', (view, column, next) => {
    expect(nextQueueOrder(view, column)).toEqual(next);
  });
});
