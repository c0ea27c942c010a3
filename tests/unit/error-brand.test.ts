/**
 * Two bundles' copies of one error class (as Next makes for pages, route handlers and proxy.ts)
 * recognise each other's instances once branded; unrelated errors stay unrelated.
 */
import { describe, expect, it } from 'vitest';
import { brandErrorClass } from '@/lib/asynq/error-brand';
import { AsynqError, isAsynqError } from '@/lib/asynq/errors';

function copyOfAsynqError() {
  // What another bundle's copy of lib/asynq/errors.ts defines: same name, a different class.
  class Copy extends Error {
    override readonly name = 'AsynqError';
    constructor(readonly kind: string) {
      super('queue "q" does not exist');
    }
  }
  brandErrorClass(Copy, 'AsynqError');
  return Copy;
}

describe('brandErrorClass', () => {
  it('makes instanceof (and isAsynqError) accept another copy of the class', () => {
    const Copy = copyOfAsynqError();
    const fromOtherBundle = new Copy('queue_not_found');
    expect(fromOtherBundle instanceof AsynqError).toBe(true);
    expect(isAsynqError(fromOtherBundle, 'queue_not_found')).toBe(true);
    expect(new AsynqError('NOT_FOUND', 'queue_not_found', 'x', 'op') instanceof Copy).toBe(true);
  });

  it('keeps other errors out', () => {
    class Other extends Error {}
    brandErrorClass(Other, 'Other');
    expect(new Error('x') instanceof AsynqError).toBe(false);
    expect(new Other('x') instanceof AsynqError).toBe(false);
    expect(new AsynqError('NOT_FOUND', 'queue_not_found', 'x', 'op') instanceof Other).toBe(false);
    expect((null as unknown) instanceof AsynqError).toBe(false);
  });
});
