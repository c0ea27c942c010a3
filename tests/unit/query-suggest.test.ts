/**
 * The search box's completions (components/search/query-suggest.ts): the names it offers from
 * the tasks on screen, bounded, and the word under the caret they replace.
 */
import { describe, expect, it } from 'vitest';
import { complete, vocabularyOf, type SeenTask } from '@/components/search/query-suggest';

const task = (type: string, payload: unknown, extra: Partial<SeenTask> = {}): SeenTask => ({
  type, queue: 'mail', payload: typeof payload === 'string' ? payload : JSON.stringify(payload), payloadEncoding: 'utf8', ...extra,
});

describe('query completions', () => {
  const vocab = vocabularyOf([
    task('email:welcome', { user_id: 42, customer: { address: { city: 'Paris' } }, items: [{ sku: 'A' }], 'odd key': 1 }, { headers: { tenant: 'a' } }),
    task('email:digest', 'not json'),
    task('sms:send', { to: '+1' }, { queue: 'sms', payloadEncoding: 'base64' }),
  ]);

  it('collects types, queues and the payload paths a query can spell', () => {
    expect(vocab.types).toEqual(['email:digest', 'email:welcome', 'sms:send']);
    expect(vocab.queues).toEqual(['mail', 'sms']);
    expect(vocab.fields).toEqual(['customer.address.city', 'header.tenant', 'items.sku', 'user_id']);
  });

  it('is bounded: at most 200 names of each kind', () => {
    const many = Array.from({ length: 300 }, (_, i) => task(`t${i}`, Object.fromEntries(Array.from({ length: 5 }, (_, j) => [`k${i}_${j}`, j]))));
    const v = vocabularyOf(many);
    expect(v.types.length).toBe(200);
    expect(v.fields.length).toBe(200);
  });

  it('completes the word under the caret: keys, fields, types, queues, states', () => {
    expect(complete('us', 2, vocab)).toEqual({ from: 0, to: 2, items: [{ label: 'user_id:', insert: 'user_id:' }] });
    expect(complete('x -cu', 5, vocab)?.items.map((i) => i.label)).toEqual(['-customer.address.city:']);
    expect(complete('type:email:', 11, vocab)?.items.map((i) => i.insert)).toEqual(['type:email:digest ', 'type:email:welcome ']);
    expect(complete('queue:s', 7, vocab)?.items.map((i) => i.label)).toEqual(['queue:sms']);
    expect(complete('state:retry,ar', 14, vocab)?.items.map((i) => i.label)).toEqual(['state:retry,archived']);
    expect(complete('ty amount>1', 2, vocab)).toMatchObject({ from: 0, to: 2, items: [{ label: 'type:' }] });
    expect(complete('', 0, vocab)).toBeNull();
    expect(complete('user_id:', 8, vocab)).toBeNull();
    expect(complete('"us', 3, vocab)).toBeNull();
  });
});
