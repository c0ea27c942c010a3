/**
 * The enqueue form's state as typed, how a task fills it (clone), and how it becomes the
 * request body. Pure. Only what the server cannot judge is checked here (a number that is not
 * a number); asynq's own rules (a unique TTL under 1 s, a blank type) are left to the server,
 * so the form shows asynq's words.
 */
import { draftFromPayload, encodePayload, NEW_PAYLOAD, type PayloadDraft } from '@/components/payload/payload-draft';
import type { TaskDto } from '@/lib/contract/tasks';
import type { EnqueueBodyInput } from '@/lib/query/enqueue';
import { formatDuration, parseDuration } from '@/lib/utils';

export interface HeaderRow {
  key: string;
  value: string;
}

export interface EnqueueDraft {
  queue: string;
  type: string;
  payload: PayloadDraft;
  taskId: string;
  unique: boolean;
  uniqueTtl: string;
  maxRetry: string;
  timeout: string;
  /** datetime-local text (the viewer's time zone). */
  deadline: string;
  processMode: 'now' | 'at' | 'in';
  processAt: string;
  processIn: string;
  retention: string;
  group: string;
  headers: HeaderRow[];
}

export type FieldName = Exclude<keyof EnqueueDraft, 'unique' | 'processMode'>;
export type FieldErrors = Partial<Record<FieldName | 'form', string>>;

export const newDraft = (queue = 'default'): EnqueueDraft => ({
  queue, type: '', payload: NEW_PAYLOAD, taskId: '', unique: false, uniqueTtl: '', maxRetry: '', timeout: '', deadline: '',
  processMode: 'now', processAt: '', processIn: '', retention: '', group: '', headers: [],
});

/** ISO → the value a datetime-local input shows (local time, to the second). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * The unique TTL a clone is given when the task's lock no longer tells its own (asynq does not
 * store it): an hour, said so beside the form (see `uniqueTtlGuessed`).
 */
export const FALLBACK_UNIQUE_TTL_S = 3600;

/** A duration as the form shows it, in the one duration form, read back exactly by parseDuration. */
const durationText = (seconds: number): string => (seconds > 0 ? formatDuration(seconds, { exact: true }) : '');

/**
 * Everything the task record holds that an enqueue can set again, so that the first submit
 * enqueues the same task: the unique TTL from the task's lock (`uniqueTtlSeconds`, which the
 * server reads back from it) or, when the lock no longer tells, FALLBACK_UNIQUE_TTL_S. Not
 * filled: the original process time (a clone runs when asked).
 */
export function draftFromTask(t: TaskDto, payload: { text: string; encoding: 'utf8' | 'base64' }): EnqueueDraft {
  const unique = t.uniqueKey !== null;
  return {
    ...newDraft(t.queue),
    type: t.type,
    payload: draftFromPayload(payload.text, payload.encoding, t.uniqueKey),
    unique,
    uniqueTtl: unique ? durationText(t.uniqueTtlSeconds ?? FALLBACK_UNIQUE_TTL_S) : '',
    maxRetry: String(t.maxRetry),
    timeout: durationText(t.timeoutSeconds),
    deadline: toLocalInput(t.deadline),
    retention: durationText(t.retentionSeconds),
    group: t.group ?? '',
    headers: Object.entries(t.headers).map(([key, value]) => ({ key, value })),
  };
}

/** Whether a clone's unique TTL is the fallback rather than the task's own. */
export const uniqueTtlGuessed = (t: TaskDto): boolean => t.uniqueKey !== null && t.uniqueTtlSeconds === null;

const DURATION_HELP = 'A duration such as 90, 30s, 5m or 1h30m';

type Built = { ok: true; queue: string; body: EnqueueBodyInput } | { ok: false; errors: FieldErrors };

/** The draft → `{ queue, body }` for POST /api/queues/{queue}/tasks, or the fields to fix. */
export function toEnqueueRequest(d: EnqueueDraft): Built {
  const errors: FieldErrors = {};
  const options: NonNullable<EnqueueBodyInput['options']> = {};
  const duration = (field: FieldName, text: string): number | undefined => {
    if (text.trim() === '') return undefined;
    const s = parseDuration(text);
    if (s === null) errors[field] = DURATION_HELP;
    return s ?? undefined;
  };
  const time = (field: FieldName, text: string): string | undefined => {
    if (text.trim() === '') return undefined;
    const t = new Date(text);
    if (Number.isNaN(t.getTime())) errors[field] = 'Not a date and time';
    return Number.isNaN(t.getTime()) ? undefined : t.toISOString();
  };
  if (d.queue.trim() === '') errors.queue = 'queue name must contain one or more characters';
  const payload = encodePayload(d.payload);
  if (!payload.ok) errors.payload = payload.error;
  if (d.taskId !== '') options.taskId = d.taskId;
  if (d.unique) {
    if (d.uniqueTtl.trim() === '') errors.uniqueTtl = 'How long the lock lasts, such as 1h';
    else options.uniqueTtlSeconds = duration('uniqueTtl', d.uniqueTtl);
  }
  if (d.maxRetry.trim() !== '') {
    if (/^-?\d+$/.test(d.maxRetry.trim())) options.maxRetry = Number(d.maxRetry);
    else errors.maxRetry = 'A whole number';
  }
  options.timeoutSeconds = duration('timeout', d.timeout);
  options.deadline = time('deadline', d.deadline);
  if (d.processMode === 'at') {
    options.processAt = time('processAt', d.processAt);
    if (!options.processAt) errors.processAt ??= 'Pick a time';
  }
  if (d.processMode === 'in') {
    options.processInSeconds = duration('processIn', d.processIn);
    if (options.processInSeconds === undefined) errors.processIn ??= DURATION_HELP;
  }
  options.retentionSeconds = duration('retention', d.retention);
  if (d.group !== '') options.group = d.group;
  const rows = d.headers.filter((h) => h.key !== '' || h.value !== '');
  if (rows.some((h) => h.key === '')) errors.headers = 'Every header needs a name';
  else if (new Set(rows.map((h) => h.key)).size < rows.length) errors.headers = 'A header name is given twice';
  else if (rows.length > 0) options.headers = Object.fromEntries(rows.map((h) => [h.key, h.value]));
  if (Object.keys(errors).length > 0 || !payload.ok) return { ok: false, errors };
  const clean = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  return { ok: true, queue: d.queue, body: { type: d.type, payload: payload.payload, payloadEncoding: payload.encoding, options: clean } };
}

const SERVER_FIELDS: Record<string, FieldName> = {
  uniqueTtlSeconds: 'uniqueTtl',
  timeoutSeconds: 'timeout',
  retentionSeconds: 'retention',
  processInSeconds: 'processIn',
};

/** The API's `error.field` (`uniqueTtlSeconds`, `options.maxRetry`, `payload`) → the form field. */
export function fieldOf(serverField: unknown): FieldName | 'form' {
  if (typeof serverField !== 'string') return 'form';
  const name = serverField.replace(/^options\./, '').split('.')[0] ?? '';
  const known: FieldName[] = ['queue', 'type', 'payload', 'taskId', 'maxRetry', 'deadline', 'processAt', 'group', 'headers'];
  return SERVER_FIELDS[name] ?? (known.includes(name as FieldName) ? (name as FieldName) : 'form');
}
