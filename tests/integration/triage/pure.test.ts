/**
 * The pure parts of triage, without Redis: error signatures, not-found recognition and the
 * routing explanation. The msg reader is tested in tests/unit/asynq/task-msg-view.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { errorSignature, explainRoutes, goQuote, isHandlerNotFoundError } from '@/lib/asynq';

describe('errorSignature', () => {
  it.each([
    ['order 1234 failed after 2.5s', 'order <n> failed after <n>s'],
    ['user 550e8400-e29b-41d4-a716-446655440000 missing', 'user <uuid> missing'],
    ['object 507f1f77bcf86cd799439011 gone, sha deadbeefcafe1234', 'object <hex> gone, sha <hex>'],
    ['bad pointer 0xc000123abc', 'bad pointer <hex>'],
    ['dial tcp 10.1.2.3:6379: i/o timeout', 'dial tcp <ip>:<n>: i/o timeout'],
    ['Get "https://api.example.com/v1/users/42?token=abc&x=1": EOF', 'Get "…": EOF'],
    ['fetch https://api.example.com/v1/users/42?token=abc failed', 'fetch https://api.example.com/v<n>/users/<n>?… failed'],
    ["key 'user:9' not found", "key '…' not found"],
    ['json: cannot unmarshal "x\\"y" into int', 'json: cannot unmarshal "…" into int'],
    ['  many   spaces\n\tand lines  ', 'many spaces and lines'],
    ['context deadline exceeded', 'context deadline exceeded'],
    ['', ''],
  ])('%j → %j', (msg, sig) => {
    expect(errorSignature(msg)).toBe(sig);
  });

  it('never splits messages that differ only in numbers or ids, and cuts long ones', () => {
    expect(errorSignature('retry 1 of 25 for job 77')).toBe(errorSignature('retry 20 of 25 for job 123456'));
    const long = errorSignature('x'.repeat(10_000));
    expect(long.length).toBe(501);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('not-found recognition', () => {
  it('quotes as Go %q does', () => {
    expect(goQuote('a"b\\c\td\u007f\u00a0é😀\u200b\u{10ffff}')).toBe('"a\\"b\\\\c\\td\\x7f\\u00a0é😀\\u200b\\U0010ffff"');
  });

  it('quotes a lone surrogate as the U+FFFD a Go server receives for it', () => {
    expect(goQuote('a\ud800b')).toBe('"a\ufffdb"');
  });

  it('accepts exactly Go\'s quoting of the task\'s own type, nothing else', () => {
    expect(isHandlerNotFoundError('handler not found for task "a:b"', 'a:b')).toBe(true);
    expect(isHandlerNotFoundError('handler not found for task "x\\u00a0"', 'x\u00a0')).toBe(true);
    // JSON's quoting leaves NBSP raw; Go's %q never does, so no server stored this.
    expect(isHandlerNotFoundError('handler not found for task "x\u00a0"', 'x\u00a0')).toBe(false);
    expect(isHandlerNotFoundError('handler not found for task "a:c"', 'a:b')).toBe(false);
    expect(isHandlerNotFoundError('wrapped: handler not found for task "a:b"', 'a:b')).toBe(false);
    expect(isHandlerNotFoundError('handler not found for task "a:b" (retrying)', 'a:b')).toBe(false);
    expect(isHandlerNotFoundError('', '')).toBe(false);
  });
});

describe('explainRoutes', () => {
  it('answers from the ServeMux, with warnings only off segment boundaries', () => {
    expect(explainRoutes(['email', 'email:'], ['emailextra', 'email:x', 'email', 'other'])).toEqual([
      expect.objectContaining({ taskType: 'emailextra', pattern: 'email', match: 'prefix', warning: expect.stringContaining('plain string prefixes') }),
      expect.objectContaining({ taskType: 'email:x', pattern: 'email:', match: 'prefix', warning: null }),
      expect.objectContaining({ taskType: 'email', pattern: 'email', match: 'exact', warning: null }),
      expect.objectContaining({ taskType: 'other', pattern: null, match: 'none', warning: null }),
    ]);
  });

  it('throws asynq\'s registration texts with the failing index', () => {
    expect(() => explainRoutes(['a', '  '], [])).toThrow(expect.objectContaining({ message: 'asynq: invalid pattern', details: { field: 'patterns.1', pattern: '  ' } }));
    expect(() => explainRoutes(['a', 'a'], [])).toThrow('asynq: multiple registrations for a');
  });
});
