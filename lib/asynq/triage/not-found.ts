/**
 * Recognising asynq's handler-not-found failures and saying in plain words what they mean.
 */
import { goQuote } from '../errors';
import { HANDLER_NOT_FOUND } from '../worker/serve-mux';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const SHORT_ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };

/**
 * Go's `%q` (strconv.Quote) exactly: printable characters (letters, marks, numbers,
 * punctuation, symbols, ASCII space) stay, the rest become \a \b … \xNN \uNNNN \UNNNNNNNN.
 * JSON quoting differs from it for DEL, NBSP, zero-width and other format characters.
 */
export function goQuoteExact(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const short = SHORT_ESCAPES[ch];
    if (short) out += short;
    else if (PRINTABLE.test(ch)) out += ch;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** The not-found message a Go worker stores for a type: `handler not found for task "<type>"`. */
export const handlerNotFoundMessage = (taskType: string): string => `${HANDLER_NOT_FOUND} ${goQuoteExact(taskType)}`;

/**
 * Whether `errorMsg` is exactly the error asynq's not-found handler stores for a task of
 * `taskType`, as a Go worker writes it (Go's %q) or as this core's TypeScript worker writes it
 * (JSON quoting, identical for every printable type name). A wrapped or reworded error — a
 * middleware's `x: handler not found …` — is a different failure and is not counted.
 */
export function isHandlerNotFoundError(errorMsg: string, taskType: string): boolean {
  if (!errorMsg.startsWith(HANDLER_NOT_FOUND)) return false;
  return errorMsg === handlerNotFoundMessage(taskType) || errorMsg === `${HANDLER_NOT_FOUND} ${goQuote(taskType)}`;
}

/** What a not-found group means and what to do about it, in plain words. */
export function notFoundExplanation(taskType: string): string {
  return (
    `No worker registered a handler for ${goQuote(taskType)} when these ran — usually clients deployed before workers. ` +
    'Deploy a worker with a handler for it, then re-run these tasks.'
  );
}
