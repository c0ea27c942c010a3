/**
 * Acting on every task of every queue takes an explicit `all: true`: which filter parameters
 * count as narrowing (the browser asks the same question before sending `all`), and the body
 * schema's answer for each kind of filter.
 */
import { describe, expect, it } from 'vitest';
import { searchActBodySchema } from '@/lib/contract/search';
import { narrowsByParam } from '@/lib/contract/search-scope';

describe('search act and all: true', () => {
  it('queue, type, state and text parameters narrow; times and retries alone do not', () => {
    for (const key of ['queue', 'state', 'type', 'typePrefix', 'id', 'payload', 'error', 'payload.user.id', 'header.tenant']) expect(narrowsByParam(key), key).toBe(true);
    for (const key of ['minRetried', 'lastFailedAfter', 'completedBefore', 'nextRunAfter']) expect(narrowsByParam(key), key).toBe(false);
  });

  it('refuses an action on an unnarrowed filter without all, at the field all', () => {
    for (const filter of [{}, { minRetried: '1' }, { completedAfter: '2026-01-01' }]) {
      const r = searchActBodySchema.safeParse({ filter, action: 'delete' });
      expect(r.success, JSON.stringify(filter)).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(['all']);
    }
    expect(searchActBodySchema.safeParse({ filter: {}, action: 'delete', all: true }).success).toBe(true);
    expect(searchActBodySchema.safeParse({ filter: {}, action: 'delete', preview: true }).success).toBe(true);
    expect(searchActBodySchema.safeParse({ filter: { type: 'email:send' }, action: 'delete' }).success).toBe(true);
    expect(searchActBodySchema.safeParse({ filter: {}, action: 'delete', all: 'yes' }).success).toBe(false);
  });

  it('refuses an empty list for every list parameter', () => {
    for (const key of ['queue', 'state', 'type', 'typePrefix']) {
      const r = searchActBodySchema.safeParse({ filter: { [key]: [] }, action: 'delete', all: true });
      expect(r.error?.issues[0]?.path, key).toEqual(['filter', key]);
    }
  });
});
