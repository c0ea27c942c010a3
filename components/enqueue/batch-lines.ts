/**
 * JSON lines → batch items. A line is an enqueue body plus an optional `queue`, as
 * POST /api/enqueue-batch takes it, with one convenience: a payload that is not a string
 * (an object, a number…) is sent as its JSON text. Every problem is reported on its line
 * before anything is sent: the server would refuse the whole request for one bad item.
 */
import type { BatchItemInput } from '@/lib/query/enqueue';

export interface BatchLine {
  /** 1-based line number in the pasted text. */
  line: number;
  item?: BatchItemInput;
  error?: string;
}

const ITEM_KEYS = ['queue', 'type', 'payload', 'payloadEncoding', 'options'];
const OPTION_KEYS = ['taskId', 'uniqueTtlSeconds', 'maxRetry', 'timeoutSeconds', 'deadline', 'processAt', 'processInSeconds', 'retentionSeconds', 'group', 'headers'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function toItem(v: unknown, defaultQueue: string): BatchItemInput | string {
  if (!isObject(v)) return 'Each line must be a JSON object such as {"type":"email:welcome","payload":{"userId":1}}';
  const unknown = Object.keys(v).find((k) => !ITEM_KEYS.includes(k));
  if (unknown) return `Unknown field "${unknown}" (allowed: ${ITEM_KEYS.join(', ')})`;
  if (typeof v.type !== 'string') return 'type must be a string';
  if (v.queue !== undefined && typeof v.queue !== 'string') return 'queue must be a string';
  if (v.payloadEncoding !== undefined && v.payloadEncoding !== 'utf8' && v.payloadEncoding !== 'base64') return 'payloadEncoding must be utf8 or base64';
  if (v.options !== undefined && !isObject(v.options)) return 'options must be an object';
  const badOption = Object.keys(v.options ?? {}).find((k) => !OPTION_KEYS.includes(k));
  if (badOption) return `Unknown option "${badOption}" (allowed: ${OPTION_KEYS.join(', ')})`;
  let payload: string | null | undefined;
  if (v.payload === undefined || v.payload === null || typeof v.payload === 'string') payload = v.payload;
  else if (v.payloadEncoding === 'base64') return 'A base64 payload must be a string';
  else payload = JSON.stringify(v.payload);
  return {
    queue: v.queue ?? defaultQueue,
    type: v.type,
    ...(payload !== undefined ? { payload } : {}),
    ...(v.payloadEncoding ? { payloadEncoding: v.payloadEncoding } : {}),
    ...(v.options ? { options: v.options } : {}),
  };
}

/** Every non-blank line, parsed; blank lines are skipped but keep the numbering. */
export function parseBatchLines(text: string, defaultQueue: string): BatchLine[] {
  const out: BatchLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      out.push({ line: i + 1, error: `Not JSON: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    const item = toItem(value, defaultQueue);
    out.push(typeof item === 'string' ? { line: i + 1, error: item } : { line: i + 1, item });
  });
  return out;
}
