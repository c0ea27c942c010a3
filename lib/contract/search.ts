/**
 * Task search: the filter as it travels in a query string (GET /api/tasks/search) and in the
 * body of POST /api/tasks/search/act, and the two responses.
 *
 * A filter is a multi-map of parameters. `queue`, `state`, `type` and `typePrefix` may repeat
 * (any of them matches; `state` also takes a comma-separated list); `payload.<path>` and
 * `header.<key>` name their field in the key; every other parameter is given once. An unknown
 * parameter is a 400: a misspelt filter must never widen a bulk delete to every task. `q` is a
 * search query (`type:email:* user_id:42 amount>100`, grammar in lib/asynq/search/query.ts):
 * the server parses it and ANDs it with the other parameters, and a bad one is a 400 naming
 * the offset and the word (`offset`, `token` in the error).
 */
import { z } from 'zod';
import { taskSchema, taskStateSchema, type TaskStateDto } from './tasks';
import { bulkActionSchema } from './mutations';
import { SEARCH_LIST_PARAMS } from './search-scope';

export const SEARCH_TIME_PARAMS = [
  'lastFailedAfter', 'lastFailedBefore', 'nextRunAfter', 'nextRunBefore', 'completedAfter', 'completedBefore',
] as const;
export type SearchTimeParam = (typeof SEARCH_TIME_PARAMS)[number];

/** The parsed filter; it has the shape of the core's SearchFilter. */
export interface SearchFilterDto {
  queues?: string[];
  states?: TaskStateDto[];
  types?: string[];
  typePrefixes?: string[];
  id?: string;
  payloadContains?: string;
  payloadFields?: { path: string[]; value: string }[];
  errorContains?: string;
  headers?: Record<string, string>;
  minRetried?: number;
  /** A search query (lib/asynq/search/query.ts), parsed by the server: it narrows the rest. */
  q?: string;
  lastFailedAfter?: Date;
  lastFailedBefore?: Date;
  nextRunAfter?: Date;
  nextRunBefore?: Date;
  completedAfter?: Date;
  completedBefore?: Date;
}

type Raw = string | string[];
type Issue = (param: string, message: string) => void;

const once = (param: string, v: Raw, issue: Issue): string | undefined => {
  if (typeof v === 'string') return v;
  if (v.length === 1) return v[0];
  issue(param, `${param} may be given only once`);
  return undefined;
};
const many = (v: Raw): string[] => (typeof v === 'string' ? [v] : v);

const isoTime = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

function parseTime(param: string, text: string, issue: Issue): Date | undefined {
  if (!isoTime.safeParse(text).success) {
    issue(param, `${param} must be an ISO-8601 time such as 2026-11-30T03:10:16Z`);
    return undefined;
  }
  return new Date(text);
}

function parseList(out: SearchFilterDto, param: (typeof SEARCH_LIST_PARAMS)[number], v: Raw, issue: Issue): void {
  const values = many(v);
  // An empty list would filter nothing, so a bulk action would reach every task.
  if (values.length === 0) return issue(param, `${param} must list one or more values`);
  if (param === 'state') {
    const states = values.flatMap((s) => s.split(',')).map((s) => s.trim());
    const bad = states.find((s) => !taskStateSchema.safeParse(s).success);
    if (bad !== undefined) issue(param, `state ${JSON.stringify(bad)} is not one of ${taskStateSchema.options.join(', ')}`);
    else out.states = states as TaskStateDto[];
  } else if (values.some((s) => s === '')) {
    issue(param, `${param} cannot be empty`);
  } else if (param === 'queue') out.queues = values;
  else if (param === 'type') out.types = values;
  else out.typePrefixes = values;
}

/** Folds one parameter into `out`; reports a bad one through `issue`. */
function parseParam(out: SearchFilterDto, key: string, v: Raw, issue: Issue): void {
  if ((SEARCH_LIST_PARAMS as readonly string[]).includes(key)) return parseList(out, key as (typeof SEARCH_LIST_PARAMS)[number], v, issue);
  const text = once(key, v, issue);
  if (text === undefined) return;
  if (key === 'q') {
    // Whitespace alone says nothing, so it must not count as narrowing a bulk action.
    if (text.trim() !== '') out.q = text;
  } else if (key === 'id') out.id = text;
  else if (key === 'payload') out.payloadContains = text;
  else if (key === 'error') out.errorContains = text;
  else if (key === 'minRetried') {
    if (!/^\d+$/.test(text)) issue(key, 'minRetried must be a whole number ≥ 0');
    else out.minRetried = Number(text);
  } else if ((SEARCH_TIME_PARAMS as readonly string[]).includes(key)) {
    const t = parseTime(key, text, issue);
    if (t) out[key as SearchTimeParam] = t;
  } else if (key.startsWith('payload.')) {
    const path = key.slice('payload.'.length).split('.');
    if (path.some((s) => s === '')) issue(key, `${key}: a payload path is dot-separated keys, none empty (payload.user.id=42)`);
    else (out.payloadFields ??= []).push({ path, value: text });
  } else if (key.startsWith('header.') && key.length > 'header.'.length) {
    (out.headers ??= {})[key.slice('header.'.length)] = text;
  } else {
    issue(key, `unknown search parameter ${JSON.stringify(key)}`);
  }
}

function checkWindows(out: SearchFilterDto, issue: Issue): void {
  for (const [after, before] of [['lastFailedAfter', 'lastFailedBefore'], ['nextRunAfter', 'nextRunBefore'], ['completedAfter', 'completedBefore']] as const) {
    const a = out[after];
    const b = out[before];
    if (a && b && a.getTime() >= b.getTime()) issue(after, `${after} must be earlier than ${before}`);
  }
}


const rawValue = z.union([z.string(), z.number().transform(String), z.array(z.string())]);

/** A filter multi-map → SearchFilterDto; each bad parameter is an issue at its own name. */
/** The parsed fields that narrow by queue, type, state or text (see narrowsByParam). */
const NARROWING_FIELDS = new Set<string>(['queues', 'states', 'types', 'typePrefixes', 'id', 'payloadContains', 'payloadFields', 'errorContains', 'headers', 'q']);

export const searchFilterSchema = z.record(z.string(), rawValue).transform((raw, ctx) => {
  const out: SearchFilterDto = {};
  let ok = true;
  const issue: Issue = (param, message) => {
    ok = false;
    ctx.addIssue({ code: 'custom', message, path: [param], input: raw[param] });
  };
  for (const [key, v] of Object.entries(raw)) parseParam(out, key, v, issue);
  checkWindows(out, issue);
  return ok ? out : z.NEVER;
});

const pageSize = z
  .string()
  .regex(/^\d+$/, 'size must be a whole number')
  .transform(Number)
  .refine((n) => n >= 1 && n <= 100, 'size must be from 1 to 100');

/** A cursor names a queue and a group, so it is bounded by theirs: far above any real one. */
const MAX_SEARCH_CURSOR = 4096;
const SEARCH_CURSOR = new RegExp(`^[A-Za-z0-9_-]{0,${MAX_SEARCH_CURSOR}}$`);

/** GET /api/tasks/search: the filter plus `cursor` and `size` (matches per page, default 20). */
export const searchQuerySchema = z
  .record(z.string(), z.union([z.string(), z.array(z.string())]))
  .transform((raw, ctx) => {
    const { cursor, size, ...filter } = raw;
    const single = (name: string, v: Raw | undefined) => {
      if (Array.isArray(v)) {
        ctx.addIssue({ code: 'custom', message: `${name} may be given only once`, path: [name], input: v });
        return undefined;
      }
      return v;
    };
    const c = single('cursor', cursor);
    if (c !== undefined && !SEARCH_CURSOR.test(c)) {
      ctx.addIssue({ code: 'custom', message: `cursor must be the cursor returned by the previous page (base64url, at most ${MAX_SEARCH_CURSOR} characters)`, path: ['cursor'], input: undefined });
      return z.NEVER;
    }
    const s = single('size', size);
    const parsedSize = s === undefined ? { success: true as const, data: 20 } : pageSize.safeParse(s);
    if (!parsedSize.success) ctx.addIssue({ code: 'custom', message: parsedSize.error.issues[0]?.message ?? 'bad size', path: ['size'], input: s });
    const parsedFilter = searchFilterSchema.safeParse(filter);
    if (!parsedFilter.success) for (const i of parsedFilter.error.issues) ctx.addIssue({ code: 'custom', message: i.message, path: i.path, input: undefined });
    if (!parsedSize.success || !parsedFilter.success) return z.NEVER;
    return { filter: parsedFilter.data, cursor: c || undefined, size: parsedSize.data };
  });
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const searchPageSchema = z.object({
  tasks: z.array(taskSchema),
  /** Pass back as `cursor` for the next page; null once the search is complete. */
  cursor: z.string().nullable(),
  complete: z.boolean(),
  /** Tasks examined so far (all pages); can pass `total` when tasks arrive during a search. */
  scanned: z.number(),
  /** Tasks in the chosen queues and states when the search started. */
  total: z.number(),
  /** Matches returned so far (all pages). */
  matched: z.number(),
});
export type SearchPageDto = z.infer<typeof searchPageSchema>;

export const searchActBodySchema = z
  .object({
    filter: searchFilterSchema,
    action: bulkActionSchema,
    /** true: only count what the action would touch. */
    preview: z.boolean().default(false),
    /** Required (true) to act with a filter that names no queue, type, state or text. */
    all: z.literal(true, { error: 'all must be true when given' }).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.preview || body.all) return;
    if (!Object.keys(body.filter).some((k) => NARROWING_FIELDS.has(k))) {
      ctx.addIssue({
        code: 'custom',
        path: ['all'],
        message: 'the filter names no queue, type, state or text, so the action would reach every task of every queue; send "all": true to mean that',
      });
    }
  });
export type SearchActBody = z.infer<typeof searchActBodySchema>;

const progressFields = {
  scanned: z.number(),
  total: z.number(),
  /** The signal (client gone) stopped it before the end. */
  stopped: z.boolean(),
};

export const searchPreviewSchema = z.object({
  preview: z.literal(true),
  count: z.number(),
  /** The count per queue, for checking an archive against each queue's archive limit. */
  byQueue: z.record(z.string(), z.number()),
  ...progressFields,
});
export const searchActResultSchema = z.object({
  preview: z.literal(false),
  matched: z.number(),
  succeeded: z.number(),
  /** The first 1,000 failures; `failedCount` counts them all. */
  failed: z.array(z.object({ id: z.string(), queue: z.string(), error: z.object({ code: z.string(), message: z.string() }) })),
  failedCount: z.number(),
  trimmed: z.number(),
  ...progressFields,
});
export type SearchPreviewDto = z.infer<typeof searchPreviewSchema>;
export const searchActOutcomeSchema = z.union([searchPreviewSchema, searchActResultSchema]);

/** One `{"progress":…}` line of a streamed search action, every 10,000 tasks scanned. */
export const searchActProgressSchema = z.object({
  scanned: z.number(),
  total: z.number(),
  matched: z.number(),
  succeeded: z.number(),
  failed: z.number(),
});
export type SearchActProgressDto = z.infer<typeof searchActProgressSchema>;
export type SearchActResultDto = z.infer<typeof searchActResultSchema>;
