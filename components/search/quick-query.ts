/**
 * What the search box understands: `key:value` (or `key=value`) for any filter, and bare
 * words read by their shape. Pure, so the shell's box and the page's box agree.
 *
 *   4711                       → payload contains "4711"
 *   "order 4711"               → payload contains "order 4711" (quotes keep spaces)
 *   3f2c…-…-…-…-… (a UUID)     → task ID
 *   email:welcome              → type starts with "email:welcome" (asynq types look like this)
 *   queue:default state:retry type:email:welcome prefix:email: error:timeout retried:3
 *   payload.user.id=42 header.tenant=acme lastFailedAfter:2026-11-01
 */
import { isFilterKey, type FilterPair } from '@/lib/url-state';

const ALIASES: Record<string, string> = {
  queue: 'queue',
  in: 'queue',
  state: 'state',
  is: 'state',
  type: 'type',
  prefix: 'typePrefix',
  typeprefix: 'typePrefix',
  id: 'id',
  payload: 'payload',
  error: 'error',
  err: 'error',
  retried: 'minRetried',
  minretried: 'minRetried',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TYPE_LIKE = /^[\w.-]+:[\w.:*-]*$/;
const unquote = (s: string) => s.replace(/"/g, '');

function keyed(token: string): FilterPair | null {
  const m = /^([A-Za-z][\w.-]*)[:=](.+)$/.exec(token);
  if (!m?.[1] || m[2] === undefined) return null;
  const [, key, value] = m;
  const alias = ALIASES[key.toLowerCase()];
  if (alias) return [alias, unquote(value)];
  if (isFilterKey(key)) return [key, unquote(value)];
  return null;
}

export function parseQuickQuery(text: string): FilterPair[] {
  const tokens = text.match(/(?:[^\s"]+|"[^"]*")+/g) ?? [];
  const pairs: FilterPair[] = [];
  const words: string[] = [];
  for (const token of tokens) {
    const pair = keyed(token);
    if (pair) pairs.push(pair);
    else if (UUID.test(token)) pairs.push(['id', token]);
    else if (TYPE_LIKE.test(token) && !token.startsWith('"')) pairs.push(['typePrefix', token]);
    else words.push(unquote(token));
  }
  if (words.length > 0) pairs.push(['payload', words.join(' ')]);
  return pairs;
}
