/**
 * A queue view's URL: the order by state (archived and completed newest first unless the URL
 * says otherwise, the default left out of the URL), and the type control's edits of the filter
 * query (one `type:` word, the other words kept, quoting as the search language reads it).
 */
import { describe, expect, it } from 'vitest';
import { parseQueueView, taskOrderParam, typeFilterOf, withTypeFilter } from '@/lib/url-state';

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
