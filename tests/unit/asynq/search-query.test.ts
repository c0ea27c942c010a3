/**
 * The search query language (lib/asynq/search/query.ts): every form of the grammar, how it
 * narrows a filter given as parameters, errors at their word with its offset, and the bounds.
 * Also the JSON comparisons and negations it compiles to (json-field.ts), with their byte
 * pre-checks against a plain parse.
 */
import { describe, expect, it } from 'vitest';
import { isAsynqError } from '@/lib/asynq/errors';
import { filterFingerprint } from '@/lib/asynq/search/filter';
import { compileJsonFields, jsonFieldsMatch } from '@/lib/asynq/search/json-field';
import { compilePredicate } from '@/lib/asynq/search/predicate';
import { MAX_QUERY_LENGTH, parseSearchQuery, withSearchQuery } from '@/lib/asynq/search/query';
import type { JsonFieldCondition, SearchFilter } from '@/lib/asynq/search/filter';

const field = (path: string, value: string, op: JsonFieldCondition['op'] = '=', negate = false) => ({ path: path.split('.'), value, op, negate });

/** The error a query gets: its message and the offset and token it names. */
function refusal(q: string, base: SearchFilter = {}) {
  try {
    withSearchQuery(base, q);
  } catch (e) {
    if (!isAsynqError(e)) throw e;
    expect(e.code).toBe('INVALID_ARGUMENT');
    return { message: e.message, ...(e.details as { offset: number; token: string; field: string }) };
  }
  throw new Error(`${q} was accepted`);
}

describe('search query: each form', () => {
  it('type: exact, split at the first colon; a trailing * is a prefix', () => {
    expect(parseSearchQuery('type:email:welcome')).toEqual({ types: ['email:welcome'], typePrefixes: [] });
    expect(parseSearchQuery('type:email:*')).toEqual({ types: [], typePrefixes: ['email:'] });
    expect(parseSearchQuery('type:a type:b:*')).toEqual({ types: ['a'], typePrefixes: ['b:'] });
    expect(parseSearchQuery('type:"a*"')).toEqual({ types: ['a*'], typePrefixes: [] });
  });

  it('id: a prefix (8 characters from a log) or a full ID', () => {
    expect(parseSearchQuery('id:3f2c81a0')).toEqual({ idPrefixes: ['3f2c81a0'] });
    expect(parseSearchQuery('id:3f2c81a0-1111-4222-8333-444455556666')).toEqual({ idPrefixes: ['3f2c81a0-1111-4222-8333-444455556666'] });
  });

  it('queue and state repeat as any-of; state takes a comma list; -state is the complement', () => {
    expect(parseSearchQuery('queue:a queue:b queue:a')).toEqual({ queues: ['a', 'b'] });
    expect(parseSearchQuery('state:retry state:archived')).toEqual({ states: ['retry', 'archived'] });
    expect(parseSearchQuery('state:archived,retry')).toEqual({ states: ['retry', 'archived'] });
    expect(parseSearchQuery('-state:completed -state:active')).toEqual({ states: ['pending', 'scheduled', 'retry', 'archived', 'aggregating'] });
    expect(parseSearchQuery('state:retry,archived -state:archived')).toEqual({ states: ['retry'] });
  });

  it('error: and quoted values with escapes', () => {
    expect(parseSearchQuery('error:"i/o timeout"')).toEqual({ errorContains: ['i/o timeout'] });
    expect(parseSearchQuery('error:"say \\"no\\" \\\\ twice" error:x')).toEqual({ errorContains: ['say "no" \\ twice', 'x'] });
  });

  it('payload fields: any other key, dot paths, quoted values, payload. for reserved names', () => {
    expect(parseSearchQuery('user_id:42').payloadFields).toEqual([field('user_id', '42')]);
    expect(parseSearchQuery('customer.address.city:Paris').payloadFields).toEqual([field('customer.address.city', 'Paris')]);
    expect(parseSearchQuery('city:"New York" url:http://x').payloadFields).toEqual([field('city', 'New York'), field('url', 'http://x')]);
    expect(parseSearchQuery('payload.type:x payload.id:7').payloadFields).toEqual([field('type', 'x'), field('id', '7')]);
    expect(parseSearchQuery('Type:x').payloadFields).toEqual([field('Type', 'x')]);
  });

  it('comparisons: > >= < <= with or without a colon, numbers and ISO times', () => {
    expect(parseSearchQuery('amount>100 amount>=1.5 n<-3 n<=1e3').payloadFields).toEqual([
      field('amount', '100', '>'), field('amount', '1.5', '>='), field('n', '-3', '<'), field('n', '1e3', '<='),
    ]);
    expect(parseSearchQuery('amount:>100 due:<2026-12-01').payloadFields).toEqual([field('amount', '100', '>'), field('due', '2026-12-01', '<')]);
    expect(parseSearchQuery('at>=2026-12-01T10:00:00Z').payloadFields).toEqual([field('at', '2026-12-01T10:00:00Z', '>=')]);
  });

  it('negation of payload fields; a bare word starting with - is a word', () => {
    expect(parseSearchQuery('-user_id:42 -amount>5').payloadFields).toEqual([field('user_id', '42', '=', true), field('amount', '5', '>', true)]);
    expect(parseSearchQuery('-1')).toEqual({ terms: ['-1'] });
  });

  it('header.<key> maps to headers', () => {
    expect(parseSearchQuery('header.tenant:acme header.X-Trace:"a b"')).toEqual({ headers: { tenant: 'acme', 'X-Trace': 'a b' } });
  });

  it('bare words and quoted phrases are terms; a quoted colon stays in the phrase', () => {
    expect(parseSearchQuery('4711  "order 4711"\t"a:b" 3f2c81a0')).toEqual({ terms: ['4711', 'order 4711', 'a:b', '3f2c81a0'] });
    expect(parseSearchQuery('   ')).toEqual({});
  });

  it('narrows a filter given as parameters (AND)', () => {
    expect(withSearchQuery({ queues: ['a', 'b'] }, 'queue:b queue:c')).toEqual({ queues: ['b'] });
    expect(withSearchQuery({ states: ['retry', 'archived'] }, '-state:retry')).toEqual({ states: ['archived'] });
    expect(withSearchQuery({ typePrefixes: ['email:'] }, 'type:email:welcome type:sms:x')).toEqual({ types: ['email:welcome'], typePrefixes: [] });
    expect(withSearchQuery({ types: ['email:welcome'], typePrefixes: ['sms:'] }, 'type:email:*')).toEqual({ types: ['email:welcome'], typePrefixes: [] });
    expect(withSearchQuery({ typePrefixes: ['e'] }, 'type:email:*')).toEqual({ types: [], typePrefixes: ['email:'] });
    expect(withSearchQuery({ errorContains: 'a' }, 'error:b')).toEqual({ errorContains: ['a', 'b'] });
    expect(withSearchQuery({ headers: { t: 'x' } }, 'header.t:x header.u:y')).toEqual({ headers: { t: 'x', u: 'y' } });
    expect(withSearchQuery({ payloadFields: [{ path: ['a'], value: '1' }] }, 'b:2').payloadFields).toEqual([{ path: ['a'], value: '1' }, field('b', '2')]);
    expect(withSearchQuery({ id: 'abc', payloadContains: 'x' }, 'id:ab')).toEqual({ id: 'abc', payloadContains: 'x', idPrefixes: ['ab'] });
  });

  it('equal queries give equal fingerprints; each form changes it', () => {
    const fp = (q: string) => filterFingerprint(parseSearchQuery(q));
    expect(fp('a:1 b:2 x y')).toBe(fp('b:2 a:1 y x'));
    const forms = ['a:1', '-a:1', 'a>1', 'a>=1', 'x', 'id:x', 'error:x', 'type:x', 'type:x*', 'header.a:1', 'state:retry', 'queue:x'];
    expect(new Set(forms.map(fp)).size).toBe(forms.length);
  });
});

describe('search query: errors name the offset and the word', () => {
  it('a comparison that is not a number or a time', () => {
    expect(refusal('user_id:42 amount>abc')).toEqual({
      message: 'q: at 11, "amount>abc": a comparison needs a number (amount>100) or an ISO date or time (due<2026-12-01)',
      field: 'q', offset: 11, token: 'amount>abc',
    });
  });

  it.each([
    ['a "open', 2, '"open', 'never closed'],
    ['x y:', 2, 'y:', 'needs a value'],
    ['ok -queue:a', 3, '-queue:a', 'cannot be negated'],
    ['-type:x', 0, '-type:x', 'cannot be negated'],
    ['-id:x', 0, '-id:x', 'cannot be negated'],
    ['-error:x', 0, '-error:x', 'cannot be negated'],
    ['-header.a:1', 0, '-header.a:1', 'cannot be negated'],
    ['type>3', 0, 'type>3', 'takes ":" only'],
    ['state:retry,bogus', 0, 'state:retry,bogus', 'state "bogus" is not one of'],
    ['state:retry -state:retry', 12, '-state:retry', 'no state to search'],
    ['type:*', 0, 'type:*', 'matches every type'],
    ['queue:', 0, 'queue:', 'needs a value'],
    ['queue:""', 0, 'queue:""', 'cannot be empty'],
    ['a..b:1', 0, 'a..b:1', 'dot-separated keys'],
    ['payload:x', 0, 'payload:x', 'payload needs a path'],
    ['header.:x', 0, 'header.:x', 'header needs a key'],
    ['header.t:a header.t:b', 11, 'header.t:b', 'a task has one value'],
    ['at<2026-13-45', 0, 'at<2026-13-45', 'a comparison needs'],
  ])('%s → at %i, %s', (q, offset, token, reason) => {
    const r = refusal(q);
    expect(r).toMatchObject({ offset, token, field: 'q' });
    expect(r.message).toContain(reason);
    expect(r.message.startsWith(`q: at ${offset}, ${JSON.stringify(token)}: `)).toBe(true);
  });

  it('conditions that contradict the parameters are refused at the word', () => {
    expect(refusal('queue:c', { queues: ['a', 'b'] })).toMatchObject({ offset: 0, token: 'queue:c' });
    expect(refusal('x state:retry', { states: ['archived'] })).toMatchObject({ offset: 2, message: expect.stringContaining('no task can match') });
    expect(refusal('type:sms:*', { types: ['email:welcome'] })).toMatchObject({ token: 'type:sms:*' });
    expect(refusal('header.t:y', { headers: { t: 'x' } })).toMatchObject({ token: 'header.t:y' });
  });

  it('bounds: 1,000 characters and 32 words, said in the error', () => {
    expect(() => parseSearchQuery('x'.repeat(MAX_QUERY_LENGTH))).not.toThrow();
    expect(refusal('x'.repeat(MAX_QUERY_LENGTH + 1))).toMatchObject({ offset: 1000, message: 'q: at 1000: a query is at most 1,000 characters (this one has 1,001)' });
    const words = Array.from({ length: 33 }, (_, i) => `w${i}`);
    expect(() => parseSearchQuery(words.slice(0, 32).join(' '))).not.toThrow();
    const r = refusal(words.join(' '));
    expect(r).toMatchObject({ token: 'w32', offset: words.slice(0, 32).join(' ').length + 1 });
    expect(r.message).toContain('at most 32 words (this one has 33)');
  });
});

describe('JSON comparisons and negations', () => {
  const match = (payload: string, conds: readonly JsonFieldCondition[]) => jsonFieldsMatch(Buffer.from(payload), compileJsonFields(conds));
  const one = (payload: string, q: string) => match(payload, parseSearchQuery(q).payloadFields ?? []);

  it('orders numbers and numeric strings; not other strings, booleans or objects', () => {
    expect(one('{"amount":150}', 'amount>100')).toBe(true);
    expect(one('{"amount":100}', 'amount>100')).toBe(false);
    expect(one('{"amount":100}', 'amount>=100')).toBe(true);
    expect(one('{"amount":"150"}', 'amount>100')).toBe(true);
    expect(one('{"amount":"lots"}', 'amount>100')).toBe(false);
    expect(one('{"amount":true}', 'amount<100')).toBe(false);
    expect(one('{"amount":{"v":1}}', 'amount<100')).toBe(false);
    expect(one('{"amount":[5,500]}', 'amount>100')).toBe(true);
    expect(one('{"n":-4}', 'n<=-4')).toBe(true);
    expect(one('{"other":150}', 'amount>100')).toBe(false);
  });

  it('orders ISO times (no zone = UTC)', () => {
    expect(one('{"due":"2026-11-30"}', 'due<2026-12-01')).toBe(true);
    expect(one('{"due":"2026-12-01T00:00:00Z"}', 'due<2026-12-01')).toBe(false);
    expect(one('{"due":"2026-12-01T01:00:00+02:00"}', 'due<2026-12-01')).toBe(true);
    expect(one('{"due":"2026-12-01T10:00"}', 'due>=2026-12-01T10:00:00Z')).toBe(true);
    expect(one('{"due":"soon"}', 'due<2026-12-01')).toBe(false);
    expect(one('{"due":1700000000}', 'due<2026-12-01')).toBe(false);
  });

  it('negation holds when the value differs, the field is missing, or the payload is not JSON', () => {
    expect(one('{"user_id":42}', '-user_id:42')).toBe(false);
    expect(one('{"user_id":"42"}', '-user_id:42')).toBe(false);
    expect(one('{"user_id":7}', '-user_id:42')).toBe(true);
    expect(one('{"other":42}', '-user_id:42')).toBe(true);
    expect(one('plain text', '-user_id:42')).toBe(true);
    expect(one('{"broken":', '-user_id:42')).toBe(true);
    expect(one('{"tags":["a","b"]}', '-tags:b')).toBe(false);
    expect(one('{"amount":50}', '-amount>100')).toBe(true);
    expect(one('{"a":1,"b":2}', 'a:1 -b:2')).toBe(false);
    expect(one('{"a":1,"b":3}', 'a:1 -b:2')).toBe(true);
    expect(one('not json', 'a:1 -b:2')).toBe(false);
  });

  it('the byte pre-checks never change a negated or ordered answer', () => {
    let seed = 11;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const keys = ['id', 'n', 'na\\u006de', 'x'];
    const ops = ['=', '>', '>=', '<', '<='] as const;
    for (let i = 0; i < 3000; i++) {
      const key = keys[rnd(keys.length)]!;
      const v = rnd(20);
      const payload = `{"${key}":${[String(v), `${v}.0`, JSON.stringify(String(v)), `${v / 10}e1`][rnd(4)]},"pad":"n id"}`;
      const cond = { path: [['id', 'n', 'name', 'x'][rnd(4)]!], value: String(rnd(20)), op: ops[rnd(5)], negate: rnd(2) === 1 };
      const c = compileJsonFields([cond])[0]!;
      const doc = JSON.parse(payload) as Record<string, unknown>;
      const raw = doc[cond.path[0]!];
      const num = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d/.test(raw) ? Number(raw) : null;
      const at = Number(cond.value);
      const plain = num !== null && (c.op === '=' ? (typeof raw === 'number' ? raw === at : raw === cond.value) : c.op === '>' ? num > at : c.op === '>=' ? num >= at : c.op === '<' ? num < at : num <= at);
      expect(jsonFieldsMatch(Buffer.from(payload), [c]), `${payload} ${JSON.stringify(cond)}`).toBe(plain !== cond.negate);
    }
  });
});

describe('query predicate: ID prefixes and terms', () => {
  const row = (id: string, payload: string) => {
    // A msg holding only the payload (field 2): enough for the predicate's payload checks.
    const p = Buffer.from(payload);
    const msg = Buffer.concat([Buffer.from([0x12, p.length]), p]);
    return { state: 'pending' as const, id: Buffer.from(id), msg, score: null };
  };
  it('id: matches the start of the ID only; a term matches the ID start or the payload text', () => {
    const byId = compilePredicate(parseSearchQuery('id:3f2c'));
    expect(byId(row('3f2c81a0', '{}'), 0)).toBe(true);
    expect(byId(row('a3f2c81a', '{}'), 0)).toBe(false);
    const term = compilePredicate(parseSearchQuery('3f2c'));
    expect(term(row('3f2c81a0', '{}'), 0)).toBe(true);
    expect(term(row('aaaa', '{"x":"3f2c"}'), 0)).toBe(true);
    expect(term(row('a3f2c', '{"x":1}'), 0)).toBe(false);
    const both = compilePredicate(parseSearchQuery('order "id 7"'));
    expect(both(row('x', '{"order":"id 7"}'), 0)).toBe(true);
    expect(both(row('x', '{"order":"id 8"}'), 0)).toBe(false);
  });
});
