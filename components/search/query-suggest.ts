/**
 * Completions for the search query box: the reserved keys, the task types, queues and payload
 * field names seen in the tasks on screen (bounded), and the states. It only looks at the word
 * under the caret; the query itself is parsed by the server (lib/asynq/search/query.ts), never
 * here. Pure: no React.
 */
import { TASK_STATES } from '@/lib/url-state';

/** What a task on screen offers: its type, queue, headers and (JSON) payload. */
export interface SeenTask {
  type: string;
  queue: string;
  payload: string;
  payloadEncoding: string;
  headers?: Record<string, string> | undefined;
}

export interface Vocabulary {
  types: string[];
  queues: string[];
  /** Payload paths (`customer.address.city`) and `header.<key>`, without the colon. */
  fields: string[];
}

const MAX_TASKS = 200;
const MAX_NAMES = 200;
const MAX_DEPTH = 3;
/** A key the query grammar can spell without quotes (query-lexer.ts's KEYED, one step). */
const KEY_STEP = /^[A-Za-z_$@][\w$@-]*$/;
const RESERVED = ['type:', 'id:', 'queue:', 'state:', 'error:', 'header.'];

function addPaths(node: unknown, prefix: string, depth: number, out: Set<string>): void {
  if (out.size >= MAX_NAMES || depth > MAX_DEPTH) return;
  // An array step matches any element (items.sku), so its first object stands for all.
  const obj = Array.isArray(node) ? (node as unknown[]).find((e) => e !== null && typeof e === 'object' && !Array.isArray(e)) : node;
  if (obj === null || typeof obj !== 'object') return;
  for (const [key, value] of Object.entries(obj as Record<string, unknown>)) {
    if (!KEY_STEP.test(key) || out.size >= MAX_NAMES) continue;
    const path = prefix + key;
    if (value !== null && typeof value === 'object') addPaths(value, `${path}.`, depth + 1, out);
    else out.add(path);
  }
}

/** The names worth offering from the first 200 tasks on screen, at most 200 of each kind. */
export function vocabularyOf(tasks: readonly SeenTask[]): Vocabulary {
  const types = new Set<string>();
  const queues = new Set<string>();
  const fields = new Set<string>();
  for (const t of tasks.slice(0, MAX_TASKS)) {
    if (types.size < MAX_NAMES) types.add(t.type);
    if (queues.size < MAX_NAMES) queues.add(t.queue);
    for (const h of Object.keys(t.headers ?? {})) if (KEY_STEP.test(h) && fields.size < MAX_NAMES) fields.add(`header.${h}`);
    if (t.payloadEncoding !== 'utf8' || !/^\s*[[{]/.test(t.payload)) continue;
    try {
      addPaths(JSON.parse(t.payload), '', 1, fields);
    } catch {
      // A payload cut short for the list, or not JSON after all: nothing to offer from it.
    }
  }
  return { types: [...types].sort(), queues: [...queues].sort(), fields: [...fields].sort() };
}

export interface Completion {
  /** The word under the caret: [from, to) is replaced by `insert`. */
  from: number;
  to: number;
  items: { label: string; insert: string }[];
}

const MAX_ITEMS = 8;

/** Completions for the word ending at `caret`, or null when there is nothing to offer. */
export function complete(text: string, caret: number, vocab: Vocabulary): Completion | null {
  let from = caret;
  while (from > 0 && !/\s/.test(text[from - 1]!)) from--;
  const word = text.slice(from, caret);
  if (word === '' || word.includes('"')) return null;
  const neg = word.startsWith('-') ? '-' : '';
  const w = word.slice(neg.length);
  const colon = w.indexOf(':');
  let items: string[];
  if (colon === -1) {
    items = [...RESERVED, ...vocab.fields.map((f) => `${f}:`)].filter((k) => k.startsWith(w) && k !== w).map((k) => neg + k);
  } else {
    const key = w.slice(0, colon);
    const value = w.slice(colon + 1);
    if (key === 'state') {
      const done = value.slice(0, value.lastIndexOf(',') + 1);
      const last = value.slice(done.length);
      items = TASK_STATES.filter((s) => s.startsWith(last) && s !== last).map((s) => `${neg}state:${done}${s}`);
    } else {
      const names = key === 'type' ? vocab.types : key === 'queue' ? vocab.queues : [];
      items = names.filter((n) => n.startsWith(value) && n !== value && !/[\s"]/.test(n)).map((n) => `${key}:${n}`);
    }
  }
  if (items.length === 0) return null;
  return {
    from,
    to: caret,
    items: items.slice(0, MAX_ITEMS).map((label) => ({ label, insert: /[:.]$/.test(label) ? label : `${label} ` })),
  };
}
