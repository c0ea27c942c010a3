/**
 * The routing explainer against asynq's own ServeMux: for every pattern set of the table, Go's
 * `ServeMux.Handler(task)` (tests/go/triage.go, routing-match) and our POST /api/routing/explain
 * must name the same pattern for every type — or refuse the set with the same panic text.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../support/console-routes';
import { openTriageRedis, postJson } from '../../integration/triage/helpers';
import { asynqGo, targetArgs, type GoTarget } from './go';

const DB = 76;
const routes = await consoleRoutes();
asynqGo.requireGo('routing explainer vs Go ServeMux');

interface Case {
  name: string;
  patterns: string[];
  taskTypes: string[];
}

const many = Array.from({ length: 50 }, (_, i) => `p${i}`);

/** 35 pattern sets: blanks, duplicates, overlapping prefixes, segment edges, unicode, odd bytes. */
const TABLE: Case[] = [
  { name: 'no patterns', patterns: [], taskTypes: ['', 'a', 'email:x'] },
  { name: 'bare word', patterns: ['email'], taskTypes: ['email', 'emailextra', 'email:x', 'emai', '', 'EMAIL'] },
  { name: 'word with colon', patterns: ['email:'], taskTypes: ['email', 'email:', 'email:x', 'email::', 'emailx'] },
  { name: 'word and word-colon', patterns: ['email', 'email:'], taskTypes: ['email:x', 'emailx', 'email', 'email:'] },
  { name: 'nested prefixes, short first', patterns: ['a', 'ab', 'abc'], taskTypes: ['a', 'ab', 'abc', 'abcd', 'abd', 'b', ''] },
  { name: 'nested prefixes, long first', patterns: ['abc', 'ab', 'a'], taskTypes: ['a', 'ab', 'abc', 'abcd', 'abd', 'b', ''] },
  { name: 'equal lengths', patterns: ['ab', 'ac'], taskTypes: ['abx', 'acx', 'a', 'ad', 'ab', 'ac'] },
  { name: 'space only', patterns: [' '], taskTypes: ['x'] },
  { name: 'empty string', patterns: [''], taskTypes: ['x'] },
  { name: 'tabs and newlines', patterns: ['\t\n\r\v\f'], taskTypes: [] },
  { name: 'blank after valid ones', patterns: ['ok', 'fine', ''], taskTypes: ['ok'] },
  { name: 'duplicate', patterns: ['a', 'a'], taskTypes: ['a'] },
  { name: 'duplicate later', patterns: ['a', 'b', 'c', 'b'], taskTypes: ['b'] },
  { name: 'leading space', patterns: [' a'], taskTypes: [' a', 'a', ' ab', '  a', ' '] },
  { name: 'trailing space', patterns: ['a '], taskTypes: ['a ', 'a', 'a b', 'a  '] },
  { name: 'whitespace twins', patterns: ['a', 'a '], taskTypes: ['a ', 'a', 'a  ', 'a\t'] },
  { name: 'full type', patterns: ['report:new'], taskTypes: ['report:new', 'report:newer', 'report:ne', 'report:', 'report:new:x'] },
  { name: 'colon alone', patterns: [':'], taskTypes: [':', '::', ':x', 'x:', ''] },
  { name: 'no globbing', patterns: ['*'], taskTypes: ['*', 'a', '*x', ''] },
  { name: 'star suffix', patterns: ['email:*'], taskTypes: ['email:x', 'email:*x', 'email:*'] },
  { name: 'accents', patterns: ['é'], taskTypes: ['é', 'éa', 'e\u0301', 'e'] },
  { name: 'emoji', patterns: ['😀'], taskTypes: ['😀', '😀x', '😁', '😀😀'] },
  { name: 'CJK', patterns: ['日本', '日本語:'], taskTypes: ['日本語', '日', '日本', '日本語:x', '日本人'] },
  { name: 'three overlapping with segment', patterns: ['email:welcome', 'email:', 'email'], taskTypes: ['email:welcome', 'email:welcomex', 'email:digest', 'emailer', 'email'] },
  { name: 'deeper segments', patterns: ['img:resize', 'img'], taskTypes: ['img:resize:big', 'img:res', 'imgx', 'img'] },
  { name: 'fifty patterns', patterns: many, taskTypes: ['p5', 'p50', 'p499', 'q', 'p', 'p49'] },
  { name: 'case matters', patterns: ['Email'], taskTypes: ['email', 'Email:x', 'EMAIL'] },
  { name: 'long pattern', patterns: ['a'.repeat(100)], taskTypes: ['a'.repeat(100), 'a'.repeat(101), 'a'.repeat(99)] },
  { name: 'three levels', patterns: ['x:y:z', 'x:y', 'x'], taskTypes: ['x:y:z:w', 'x:y:zz', 'x:yy', 'xx', 'x', 'x:y:z'] },
  { name: 'punctuation', patterns: ['a.b', 'a+b', 'a|b'], taskTypes: ['a.b', 'axb', 'a+bc', 'a|b|c', 'a'] },
  { name: 'NUL byte', patterns: ['\u0000'], taskTypes: ['\u0000x', '', '\u0000'] },
  { name: 'whitespace-only types', patterns: ['a'], taskTypes: [' ', '\t', 'a\t', '\n'] },
  { name: 'non-breaking space only', patterns: ['\u00a0'], taskTypes: [] },
  { name: 'ideographic space then text', patterns: ['\u3000x'], taskTypes: ['\u3000x', '\u3000', '\u3000xy'] },
  { name: 'line separator only', patterns: ['\u2028\u2029'], taskTypes: [] },
  { name: 'zero-width space (not whitespace)', patterns: ['\u200b'], taskTypes: ['\u200b', '\u200bx', ''] },
  { name: 'control chars (not whitespace)', patterns: ['\u001c', '\u001f:'], taskTypes: ['\u001c', '\u001f:a', '\u001f'] },
  { name: 'registration order with prefixes', patterns: ['b', 'a', 'ab', 'ba'], taskTypes: ['ab', 'ba', 'bab', 'aba', 'c'] },
  { name: 'NEL only (Go: blank)', patterns: ['\u0085'], taskTypes: ['\u0085'] },
  { name: 'BOM only (Go: not blank)', patterns: ['\ufeff'], taskTypes: ['\ufeff', '\ufeffx'] },
];

interface GoAnswer {
  error: string | null;
  routes: string[];
}

describe.skipIf(asynqGo.noGo)('routing explainer vs Go ServeMux.Handler', () => {
  let target: GoTarget;
  let goAnswers: GoAnswer[];

  beforeAll(async () => {
    const r = await openTriageRedis(DB);
    await r.redis.quit();
    target = { port: r.port, db: DB };
    const request = (cases: Case[]) => cases.map(({ patterns, taskTypes }) => ({ patterns, taskTypes }));
    goAnswers = await asynqGo.json<GoAnswer[]>('routing-match', targetArgs(target), { stdin: request(TABLE) });
  });

  async function compare(c: Case, go: GoAnswer): Promise<void> {
    const ours = await postJson(routes.explain.POST, '/api/routing/explain', { patterns: c.patterns, taskTypes: c.taskTypes });
    if (go.error !== null) {
      expect(ours.status, `${c.name}: Go refused the set with ${go.error}`).toBe(400);
      expect(ours.body.error.message).toBe(go.error);
      return;
    }
    expect(ours.status, `${c.name}: ${JSON.stringify(ours.body)}`).toBe(200);
    const answered = ours.body.routes as { taskType: string; pattern: string | null; match: string }[];
    expect(answered.map((r) => r.pattern ?? ''), c.name).toEqual(go.routes);
    answered.forEach((r, i) => {
      const want = go.routes[i] === '' ? 'none' : go.routes[i] === c.taskTypes[i] ? 'exact' : 'prefix';
      expect(r.match, `${c.name}: ${JSON.stringify(r.taskType)}`).toBe(want);
    });
  }

  it(`covers at least 30 pattern sets (${TABLE.length}), some refused by Go`, () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
    expect(goAnswers.filter((a) => a.error !== null).length).toBeGreaterThanOrEqual(5);
    expect(goAnswers.reduce((n, a) => n + a.routes.length, 0)).toBeGreaterThanOrEqual(100);
  });

  it.each(TABLE.map((c, i) => [c.name, i] as const))('%s', async (_name, i) => {
    await compare(TABLE[i]!, goAnswers[i]!);
  });
});
