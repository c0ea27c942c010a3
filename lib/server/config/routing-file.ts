import 'server-only';
import { readFile } from 'node:fs/promises';
import type { RoutingPatternsDto } from '@/lib/contract/triage';
import { env } from './env';
import { parseRoutingGroups, type RoutingGroups } from './routing-groups';

/** The routing file's groups and problems, and its path (null when none is configured). */
export interface RoutingFile extends RoutingGroups {
  source: string | null;
}

/**
 * The worker groups of the file named by ASYNQLENS_ROUTING_FILE (routing-groups.ts has the
 * format). Read on every request (a small file), so an edited file applies without a restart.
 * A file that cannot be used is not an error of the request and does not stop the console: the
 * answer carries what loads and names each problem by file, line and rule.
 */
export async function readRoutingGroups(): Promise<RoutingFile> {
  const source = env().ASYNQLENS_ROUTING_FILE ?? null;
  if (!source) return { source: null, groups: [], problems: [] };
  let text: string;
  try {
    text = await readFile(/*turbopackIgnore: true*/ source, 'utf8');
  } catch (err) {
    const message = `${source} cannot be read: ${err instanceof Error ? err.message : String(err)}`;
    return { source, groups: [], problems: [{ file: source, line: null, rule: 'unreadable', field: '', group: null, pattern: null, message }] };
  }
  if (lastParse?.source !== source || lastParse.text !== text) lastParse = { source, text, parsed: parseRoutingGroups(source, text) };
  return { source, ...lastParse.parsed };
}

/**
 * The last file parsed: an unchanged file gives the same group objects, so what is derived from
 * them (each group's ServeMux, the verdicts' index) is built once, not per request.
 */
let lastParse: { source: string; text: string; parsed: RoutingGroups } | null = null;

/**
 * Every pattern the routing file declares, across its groups (each once, in file order), for
 * the explainer; `problem` is the first problem, with its line, or null.
 */
export async function readRoutingFile(): Promise<RoutingPatternsDto> {
  const f = await readRoutingGroups();
  const patterns = [...new Set(f.groups.flatMap((g) => g.patterns))];
  const first = f.problems[0];
  const problem = first ? `ASYNQLENS_ROUTING_FILE ${first.file}${first.line === null ? '' : `:${first.line}`}: ${first.message}` : null;
  return { patterns, source: f.source, problem };
}
