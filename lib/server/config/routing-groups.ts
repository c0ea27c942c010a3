/**
 * The routing file's worker groups: which queues each group's servers consume and the patterns
 * their ServeMux registers. Two formats load:
 *
 *   { "groups": [{ "name": "billing", "queues": ["default"], "patterns": ["invoice:"], "emits": [] }] }
 *   ["invoice:", "billing:charge"]   or   { "patterns": [...] }   (one group on every queue)
 *
 * `queues` may be left out (every queue); `emits` names the types the group's aggregator
 * produces. What is wrong is reported by file, line and rule, and the rest still loads: a bad
 * pattern is left out of its group, a bad group out of the file.
 */
import type { RoutingProblemDto, WorkerGroupDto } from '@/lib/contract/routing-verdicts';
import { jsonLines, lineAt } from './json-lines';

/** The group the old single-list format stands for. */
export const SINGLE_LIST_GROUP = 'routing-file';

export interface RoutingGroups {
  groups: WorkerGroupDto[];
  problems: RoutingProblemDto[];
}

const GO_BLANK = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

type Problem = Omit<RoutingProblemDto, 'file' | 'line'>;

/** Parses `text`, the contents of routing file `file`. Never throws. */
export function parseRoutingGroups(file: string, text: string): RoutingGroups {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(msg);
    const lc = /line (\d+)/.exec(msg);
    const line = lc ? Number(lc[1]) : pos ? lineAt(text, Number(pos[1])) : null;
    return { groups: [], problems: [{ file, line, rule: 'not_json', field: '', group: null, pattern: null, message: `${file} is not valid JSON: ${msg}` }] };
  }
  const lines = jsonLines(text);
  const problems: Problem[] = [];
  const groups = readGroups(parsed, problems);
  return { groups, problems: problems.map((p) => ({ file, line: lines.get(p.field) ?? null, ...p })) };
}

function readGroups(parsed: unknown, problems: Problem[]): WorkerGroupDto[] {
  const shape = (field: string, message: string, group: string | null = null) => problems.push({ rule: 'shape', field, group, pattern: null, message });
  if (Array.isArray(parsed)) return [group({ name: SINGLE_LIST_GROUP, queues: null, patterns: parsed }, '', problems, '')].filter(isGroup);
  if (typeof parsed !== 'object' || parsed === null) {
    shape('', 'The routing file must hold { "groups": [...] }, { "patterns": [...] } or an array of patterns.');
    return [];
  }
  const o = parsed as Record<string, unknown>;
  if (!('groups' in o)) {
    if (!('patterns' in o)) {
      shape('', 'The routing file must hold { "groups": [...] }, { "patterns": [...] } or an array of patterns.');
      return [];
    }
    return [group({ name: SINGLE_LIST_GROUP, queues: null, patterns: o.patterns }, '', problems, 'patterns')].filter(isGroup);
  }
  if (!Array.isArray(o.groups)) {
    shape('groups', '`groups` must be an array of { name, queues, patterns }.');
    return [];
  }
  const out: WorkerGroupDto[] = [];
  const names = new Set<string>();
  o.groups.forEach((g, i) => {
    const field = `groups.${i}`;
    if (typeof g !== 'object' || g === null || Array.isArray(g)) {
      shape(field, `${field} must be an object { name, queues, patterns }.`);
      return;
    }
    const r = g as Record<string, unknown>;
    if (typeof r.name !== 'string' || r.name.trim() === '') {
      shape(`${field}.name`, `${field}.name must be a non-empty string.`);
      return;
    }
    if (names.has(r.name)) {
      problems.push({ rule: 'duplicate_group', field: `${field}.name`, group: r.name, pattern: null, message: `Group \`${r.name}\` is named twice; the later one (${field}) is left out.` });
      return;
    }
    names.add(r.name);
    const parsedGroup = group({ name: r.name, queues: r.queues, patterns: r.patterns, emits: r.emits }, field, problems, `${field}.patterns`);
    if (parsedGroup) out.push(parsedGroup);
  });
  return out;
}

const isGroup = (g: WorkerGroupDto | null): g is WorkerGroupDto => g !== null;

function strings(v: unknown, field: string, group: string, problems: Problem[]): string[] | null {
  if (!Array.isArray(v)) {
    problems.push({ rule: 'shape', field, group, pattern: null, message: `${field || 'the list'} of group \`${group}\` must be an array of strings.` });
    return null;
  }
  return v.flatMap((x, i) => {
    if (typeof x === 'string') return [x];
    const at = field === '' ? String(i) : `${field}.${i}`;
    problems.push({ rule: 'shape', field: at, group, pattern: null, message: `Entry ${at} of group \`${group}\` must be a string; it is left out.` });
    return [];
  });
}

function group(
  raw: { name: string; queues: unknown; patterns: unknown; emits?: unknown },
  field: string,
  problems: Problem[],
  /** Where the pattern list is: '' for a file that is only the list. */
  pField: string,
): WorkerGroupDto | null {
  const at = (k: string) => (field === '' ? k : `${field}.${k}`);
  if (!strings(raw.patterns, pField, raw.name, problems)) return null;
  const queues = raw.queues === undefined || raw.queues === null ? null : strings(raw.queues, at('queues'), raw.name, problems);
  if (queues === null && raw.queues !== undefined && raw.queues !== null) return null;
  const emits = raw.emits === undefined ? [] : (strings(raw.emits, at('emits'), raw.name, problems) ?? []);
  const patterns: string[] = [];
  const seen = new Set<string>();
  (raw.patterns as unknown[]).forEach((p, i) => {
    if (typeof p !== 'string') return;
    const f = pField === '' ? String(i) : `${pField}.${i}`;
    const where = `pattern ${i} of group \`${raw.name}\``;
    if (GO_BLANK.test(p)) {
      problems.push({ rule: 'invalid_pattern', field: f, group: raw.name, pattern: p, message: `asynq: invalid pattern (${where} is blank); left out.` });
    } else if (seen.has(p)) {
      problems.push({ rule: 'duplicate_pattern', field: f, group: raw.name, pattern: p, message: `asynq: multiple registrations for ${p} (${where}); the repeat is left out.` });
    } else {
      seen.add(p);
      patterns.push(p);
    }
  });
  return { name: raw.name, queues, patterns, emits };
}
