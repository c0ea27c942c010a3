import 'server-only';
import { readFile } from 'node:fs/promises';
import { buildMux, isAsynqError } from '@asynqlens/asynq';
import type { RoutingPatternsDto } from '@/lib/contract/triage';
import { env } from './env';

/**
 * The patterns a deployment registers, from the JSON file named by ASYNQLENS_ROUTING_FILE: an
 * array of strings, or `{ "patterns": [...] }`. Read on every request (a small file), so an
 * edited file applies without a restart. A file that cannot be used is not an error of the
 * request: the answer carries no patterns and says why in `problem`.
 */
export async function readRoutingFile(): Promise<RoutingPatternsDto> {
  const source = env().ASYNQLENS_ROUTING_FILE ?? null;
  if (!source) return { patterns: [], source: null, problem: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(/*turbopackIgnore: true*/ source, 'utf8')) as unknown;
  } catch (err) {
    const why = err instanceof SyntaxError ? `not valid JSON: ${err.message}` : `cannot be read: ${err instanceof Error ? err.message : String(err)}`;
    return { patterns: [], source, problem: `ASYNQLENS_ROUTING_FILE ${source} ${why}` };
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { patterns?: unknown } | null)?.patterns;
  if (!Array.isArray(list) || !list.every((p) => typeof p === 'string')) {
    return { patterns: [], source, problem: `ASYNQLENS_ROUTING_FILE ${source} must hold a JSON array of strings or { "patterns": [strings] }` };
  }
  try {
    buildMux(list);
  } catch (err) {
    if (!isAsynqError(err)) throw err;
    return { patterns: list, source, problem: `${err.message} (${String(err.details.field)} of ${source})` };
  }
  return { patterns: list, source, problem: null };
}
