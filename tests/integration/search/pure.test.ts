/**
 * The search's pure parts, no Redis: the JSON field byte pre-checks against a plain parse
 * (they may only ever skip a parse, never change an answer), and the cursor's wire form.
 * The msg reader is tested in tests/unit/asynq/task-msg-view.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '@/lib/asynq/search/cursor';
import { filterFingerprint } from '@/lib/asynq/search/filter';
import { compileJsonFields, jsonFieldsMatch } from '@/lib/asynq/search/json-field';

describe('JSON field conditions', () => {
  const match = (payload: string, path: string, value: string) =>
    jsonFieldsMatch(Buffer.from(payload), compileJsonFields([{ path: path.split('.'), value }]));

  it('compares scalars the way people type them', () => {
    expect(match('{"a":42}', 'a', '42')).toBe(true);
    expect(match('{"a":"42"}', 'a', '42')).toBe(true);
    expect(match('{"a":42.0}', 'a', '42')).toBe(true);
    expect(match('{"a":4.2e1}', 'a', '42')).toBe(true);
    expect(match('{"a":42}', 'a', '42.0')).toBe(true);
    expect(match('{"a":"42.0"}', 'a', '42')).toBe(false);
    expect(match('{"a":true}', 'a', 'true')).toBe(true);
    expect(match('{"a":null}', 'a', 'null')).toBe(true);
    expect(match('{"a":{"b":1}}', 'a', '1')).toBe(false);
    expect(match('[{"a":1},{"a":2}]', 'a', '2')).toBe(true);
    expect(match('{"a":[1,2]}', 'a.1', '2')).toBe(true);
    expect(match('{"a":1e21}', 'a', '1000000000000000000000')).toBe(true);
    expect(match('{"a":0.0000001}', 'a', '1e-7')).toBe(true);
    expect(match('not json 42', 'a', '42')).toBe(false);
  });

  it('the byte pre-checks never change an answer (random documents, numbers in every form)', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const numberForms = (x: number) => [String(x), `${x}.0`, `${x}e0`, `${x / 10}e1`, `${x}E+0`, JSON.stringify(String(x))];
    const keys = ['id', 'user', 'tier', 'na\\u006de', 'x'];
    for (let i = 0; i < 5000; i++) {
      const v = rnd(50);
      const forms = numberForms(v);
      const key = keys[rnd(keys.length)]!;
      const doc = `{"${key}":${forms[rnd(forms.length)]},"other":${rnd(3) ? '"text 1.5"' : rnd(100)},"nested":{"id":${rnd(50)}}}`;
      for (const [path, value] of [['id', String(rnd(50))], ['nested.id', String(rnd(50))], ['name', String(v)], ['x', `${v}.0`], ['tier', 'gold']] as const) {
        const parsed = ((): boolean => {
          const walk = (node: unknown, p: string[]): boolean => {
            if (p.length === 0) return node === value || (typeof node === 'number' && Number(value) === node);
            const [h, ...rest] = p as [string, ...string[]];
            return node !== null && typeof node === 'object' && Object.hasOwn(node, h) && walk((node as Record<string, unknown>)[h], rest);
          };
          return walk(JSON.parse(doc), path.split('.'));
        })();
        expect(match(doc, path, value), `${doc} ${path}=${value}`).toBe(parsed);
      }
    }
  });
});

describe('cursor', () => {
  const filter = filterFingerprint({ queues: ['a'], payloadFields: [{ path: ['x'], value: '1' }] });

  it('round-trips and is tied to its filter', () => {
    const c = { filter, position: { queue: 'a:{b} ü', state: 6, group: 'g', offset: 12 }, scanned: 5000, total: 9000, matched: 3 };
    const text = encodeCursor(c);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text, filter)).toEqual(c);
    expect(() => decodeCursor(text, filterFingerprint({ queues: ['b'] }))).toThrow(/different filter/);
    expect(() => decodeCursor('eyJ2IjoxfQ', filter)).toThrow(/not a search cursor/);
  });

  it('the fingerprint ignores order and repetition, not content', () => {
    expect(filterFingerprint({ queues: ['a', 'b', 'a'] })).toBe(filterFingerprint({ queues: ['b', 'a'] }));
    expect(filterFingerprint({ headers: { a: '1', b: '2' } })).toBe(filterFingerprint({ headers: { b: '2', a: '1' } }));
    expect(filterFingerprint({ queues: ['a'] })).not.toBe(filterFingerprint({ queues: ['a'], states: ['pending'] }));
  });
});
