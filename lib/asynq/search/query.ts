/**
 * The search query language, in the manner of GitHub's, Sentry's and Datadog's search boxes.
 * This comment is its one full description (docs/api.md quotes it).
 *
 *   type:email:welcome        exact type (split at the FIRST colon: the value keeps its colons)
 *   type:email:*              type prefix (a trailing `*`)
 *   id:3f2c81a0               task ID prefix (the first characters from a log); a full ID works
 *   queue:critical            queue; repeated = any of them. `-queue:` is refused
 *   state:retry,archived      state; repeated or comma list = any of them; `-state:x` = every
 *                             other state
 *   error:"i/o timeout"       the last error contains the text; repeated = all of them
 *   header.tenant:acme        header `tenant` equals `acme`
 *   user_id:42                payload JSON field equals the value, compared as JSON
 *                             ("42" matches 42 and "42"; true, null likewise)
 *   customer.address.city:Paris   a dot path (array indexes are steps: items.0.sku:A1)
 *   payload.type:x            `payload.` reaches a payload field named like a reserved key
 *   amount>100  amount:>=100  an order: >, >=, <, <= against a number (numbers and numeric
 *   due<2026-12-01            strings match) or an ISO date or time (ISO strings match; a
 *                             time without a zone is UTC)
 *   -user_id:42  -amount>100  negation of a payload field: the task does not have that value
 *                             (a missing field or a payload that is not JSON included)
 *   4711  "order 4711"        a bare word or quoted phrase: in the payload text, or a prefix of
 *                             the task ID
 *
 * Words are separated by spaces and all must hold (AND). Double quotes keep spaces and
 * operators in a value (`city:"New York"`, `"a:b"`), with `\"` and `\\` as escapes. The
 * reserved keys are `type`, `id`, `queue`, `state`, `error`, `header.<key>` and
 * `payload.<path>`; any other `key:value` is a payload field, by definition. Keys are
 * case-sensitive. A bare word starting with `-` is a word (`-1`); only `-key…` negates, and only
 * payload fields and state may be negated. At most 1,000 characters and 32 words.
 */
import type { TaskState } from '../states';
import { TASK_STATES, isTaskState } from '../states';
import type { JsonFieldCondition, SearchFilter } from './filter';
import { errorNeedles } from './filter';
import { orderBound } from './json-field';
import { lexQuery, queryError, type QueryWord } from './query-lexer';

export const MAX_QUERY_LENGTH = 1000;
export const MAX_QUERY_WORDS = 32;

type TypePattern = { exact: string } | { prefix: string };

/** What the words say, before it meets the filter it narrows. */
interface Parsed {
  queues: { names: string[]; at: QueryWord } | null;
  states: { in: TaskState[]; out: TaskState[]; at: QueryWord } | null;
  types: { patterns: TypePattern[]; at: QueryWord } | null;
  idPrefixes: string[];
  idAt: QueryWord | null;
  errors: string[];
  headers: { key: string; value: string; at: QueryWord }[];
  fields: JsonFieldCondition[];
  terms: string[];
}

function parseStates(w: QueryWord): TaskState[] {
  const names = w.value.split(',').map((s) => s.trim());
  const bad = names.find((s) => !isTaskState(s));
  if (bad !== undefined) throw queryError(w.offset, w.raw, `state ${JSON.stringify(bad)} is not one of ${TASK_STATES.join(', ')}`);
  return names as TaskState[];
}

function payloadPath(w: QueryWord, key: string): string[] {
  const path = key.split('.');
  if (path.some((s) => s === '')) throw queryError(w.offset, w.raw, 'a payload path is dot-separated keys, none empty (customer.address.city:Paris)');
  return path;
}

function payloadField(w: QueryWord, key: string, out: Parsed): void {
  const op = w.op === ':' ? '=' : w.op!;
  if (op !== '=' && orderBound(w.value) === null) {
    throw queryError(w.offset, w.raw, 'a comparison needs a number (amount>100) or an ISO date or time (due<2026-12-01)');
  }
  out.fields.push({ path: payloadPath(w, key), value: w.value, op, negate: w.negated });
}

const RESERVED = new Set(['type', 'id', 'queue', 'state', 'error']);

/** One keyed word into `out`. */
function keyed(w: QueryWord, out: Parsed): void {
  const key = w.key!;
  if (key.startsWith('payload.')) return payloadField(w, key.slice('payload.'.length), out);
  if (key === 'payload') throw queryError(w.offset, w.raw, 'payload needs a path (payload.user.id:42); for text anywhere in the payload, type it bare or "in quotes"');
  const header = key.startsWith('header.') ? key.slice('header.'.length) : null;
  if (!RESERVED.has(key) && header === null) return payloadField(w, key, out);
  if (header === '') throw queryError(w.offset, w.raw, 'header needs a key (header.tenant:acme)');
  if (w.op !== ':') throw queryError(w.offset, w.raw, `${key.startsWith('header.') ? 'header' : key} takes ":" only; comparisons are for payload fields`);
  if (w.negated && key !== 'state') {
    const hint = key === 'queue' ? '; name the queues to search instead' : '';
    throw queryError(w.offset, w.raw, `${key.startsWith('header.') ? 'a header' : key} cannot be negated (only payload fields and state can)${hint}`);
  }
  if (w.value === '' && key !== 'error' && header === null) throw queryError(w.offset, w.raw, `${key} cannot be empty`);
  if (header !== null) {
    const clash = out.headers.find((h) => h.key === header && h.value !== w.value);
    if (clash) throw queryError(w.offset, w.raw, `header ${header} is already ${JSON.stringify(clash.value)}; a task has one value for it`);
    out.headers.push({ key: header, value: w.value, at: w });
  } else if (key === 'type') {
    const pattern: TypePattern = w.wildcard ? { prefix: w.value.slice(0, -1) } : { exact: w.value };
    if ('prefix' in pattern && pattern.prefix === '') throw queryError(w.offset, w.raw, 'type:* matches every type; leave it out');
    out.types ??= { patterns: [], at: w };
    out.types.patterns.push(pattern);
  } else if (key === 'id') {
    out.idPrefixes.push(w.wildcard ? w.value.slice(0, -1) : w.value);
    out.idAt ??= w;
  } else if (key === 'queue') {
    out.queues ??= { names: [], at: w };
    out.queues.names.push(w.value);
  } else if (key === 'state') {
    out.states ??= { in: [], out: [], at: w };
    out.states.at = w;
    (w.negated ? out.states.out : out.states.in).push(...parseStates(w));
  } else {
    out.errors.push(w.value);
  }
}

function parseWords(q: string): Parsed {
  if (q.length > MAX_QUERY_LENGTH) {
    throw queryError(MAX_QUERY_LENGTH, '', `a query is at most ${MAX_QUERY_LENGTH.toLocaleString('en-US')} characters (this one has ${q.length.toLocaleString('en-US')})`);
  }
  const words = lexQuery(q);
  const extra = words[MAX_QUERY_WORDS];
  if (extra) throw queryError(extra.offset, extra.raw, `a query has at most ${MAX_QUERY_WORDS} words (this one has ${words.length})`);
  const out: Parsed = { queues: null, states: null, types: null, idPrefixes: [], idAt: null, errors: [], headers: [], fields: [], terms: [] };
  for (const w of words) {
    if (w.key === undefined) out.terms.push(w.value);
    else keyed(w, out);
  }
  return out;
}

/** The patterns (types, or ID prefixes) both lists allow; a list matches when any of its patterns does. */
function intersectTypes(a: readonly TypePattern[], b: readonly TypePattern[]): TypePattern[] {
  const out = new Map<string, TypePattern>();
  const add = (p: TypePattern) => out.set(JSON.stringify(p), p);
  for (const x of a) {
    for (const y of b) {
      if ('exact' in x && 'exact' in y) {
        if (x.exact === y.exact) add(x);
      } else if ('exact' in x || 'exact' in y) {
        const [e, p] = 'exact' in x ? [x.exact, (y as { prefix: string }).prefix] : [(y as { exact: string }).exact, x.prefix];
        if (e.startsWith(p)) add({ exact: e });
      } else {
        const [p, r] = [x.prefix, y.prefix];
        if (p.startsWith(r)) add({ prefix: p });
        else if (r.startsWith(p)) add({ prefix: r });
      }
    }
  }
  return [...out.values()];
}

const NOTHING = 'no task can match: ';

/** The query's type patterns, narrowed by the filter's own type conditions. */
function mergeTypes(base: SearchFilter, types: NonNullable<Parsed['types']>): Pick<SearchFilter, 'types' | 'typePrefixes'> {
  const given: TypePattern[] = [...(base.types ?? []).map((exact) => ({ exact })), ...(base.typePrefixes ?? []).map((prefix) => ({ prefix }))];
  const patterns = given.length ? intersectTypes(given, types.patterns) : types.patterns;
  if (patterns.length === 0) throw queryError(types.at.offset, types.at.raw, `${NOTHING}the search is already limited to other types`);
  return {
    types: patterns.flatMap((p) => ('exact' in p ? [p.exact] : [])),
    typePrefixes: patterns.flatMap((p) => ('prefix' in p ? [p.prefix] : [])),
  };
}

/**
 * `base` narrowed by the query `q` (every condition of both must hold). Conditions that leave
 * nothing to match (`state:x -state:x`, a queue outside the filter's queues, a header given
 * two values) are refused at the word that empties the search rather than searched for.
 * Throws invalid_argument (details: `field: 'q'`, `offset`, `token`) for a query outside the
 * grammar above or its bounds. Pure: no Redis.
 */
export function withSearchQuery(base: SearchFilter, q: string): SearchFilter {
  const p = parseWords(q);
  const out: SearchFilter = { ...base };
  if (p.queues) {
    const names = base.queues ? p.queues.names.filter((n) => base.queues!.includes(n)) : p.queues.names;
    if (names.length === 0) throw queryError(p.queues.at.offset, p.queues.at.raw, `${NOTHING}the search is already limited to queue ${base.queues!.join(', ')}`);
    out.queues = [...new Set(names)];
  }
  if (p.states) {
    const wanted = (p.states.in.length ? p.states.in : TASK_STATES).filter((s) => !p.states!.out.includes(s));
    const states = TASK_STATES.filter((s) => wanted.includes(s) && (!base.states?.length || base.states.includes(s)));
    if (states.length === 0) throw queryError(p.states.at.offset, p.states.at.raw, `${NOTHING}this leaves no state to search`);
    out.states = states;
  }
  if (p.types) Object.assign(out, mergeTypes(base, p.types));
  if (p.idPrefixes.length) {
    const given = (base.idPrefixes ?? []).map((prefix) => ({ prefix }));
    const mine = p.idPrefixes.map((prefix) => ({ prefix }));
    const prefixes = (given.length ? intersectTypes(given, mine) : mine).map((x) => (x as { prefix: string }).prefix);
    if (prefixes.length === 0) throw queryError(p.idAt!.offset, p.idAt!.raw, `${NOTHING}the search is already limited to other IDs`);
    out.idPrefixes = [...new Set(prefixes)];
  }
  if (p.errors.length) out.errorContains = [...errorNeedles(base), ...p.errors];
  if (p.headers.length) {
    const headers = { ...base.headers };
    for (const h of p.headers) {
      const had = headers[h.key];
      if (had !== undefined && had !== h.value) throw queryError(h.at.offset, h.at.raw, `${NOTHING}header ${h.key} is already ${JSON.stringify(had)}`);
      headers[h.key] = h.value;
    }
    out.headers = headers;
  }
  if (p.fields.length) out.payloadFields = [...(base.payloadFields ?? []), ...p.fields];
  if (p.terms.length) out.terms = [...(base.terms ?? []), ...p.terms];
  return out;
}

/** The filter a query alone describes: `withSearchQuery({}, q)`. */
export const parseSearchQuery = (q: string): SearchFilter => withSearchQuery({}, q);
