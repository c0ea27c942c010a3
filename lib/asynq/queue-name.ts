/**
 * The rule for a queue name the console will write keys under. asynq itself only refuses a
 * blank name (`base.ValidateQueueName`), but every per-queue key is `asynq:{<q>}:<rest>`, and
 * a name is only safe in that layout when the key can be split back into exactly one
 * (queue, rest) pair:
 *
 * - `}` ends the Redis Cluster hash tag early and makes keys of one queue read as keys of
 *   another: enqueueing into `default}:t:X` writes `asynq:{default}:t:X}:pending`, a "task hash"
 *   of queue `default`, in `default`'s slot. `{` is refused with it: a name that looks like a
 *   hash tag is never intended, and with no brace at all the queue is simply the text between
 *   the first `{` and the first `}` of every key.
 * - Control characters (C0, DEL, C1) and unpaired UTF-16 surrogates: a surrogate has no UTF-8
 *   form, so the key written would name a different queue than the one asked for; control
 *   characters cut keys apart in redis-cli output, logs and the line-based tools operators use.
 * - At most 256 bytes of UTF-8: the name is repeated in every key of every task of the queue.
 *
 * Stricter than asynq on writes only: reads, deletes and lock releases still accept any
 * non-blank name, so data another client put under such a name can be seen and removed.
 */
import { invalidArgument } from './errors';

export const MAX_QUEUE_NAME_BYTES = 256;

/** The rule in one sentence, the text of every refusal. */
export const QUEUE_NAME_RULE =
  `a queue name must not be blank, must not contain "{" or "}" (they break asynq's key layout asynq:{<queue>}:…), ` +
  `control characters or unpaired surrogates, and must be at most ${MAX_QUEUE_NAME_BYTES} bytes of UTF-8`;

/**
 * Braces, C0 controls, DEL, C1 controls, and a surrogate half without its other half.
 * lib/contract/common.ts spells the same rule for the wire (it may not import the core);
 * tests/integration/names/rule.test.ts holds the two to the same answers.
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[{}\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when the console may create keys for queue `name`. O(length of the name). */
export function isWritableQueueName(name: string): boolean {
  return name.trim().length > 0 && !FORBIDDEN.test(name) && new TextEncoder().encode(name).length <= MAX_QUEUE_NAME_BYTES;
}

/**
 * Throws invalid_argument naming `field` and the rule unless `name` is writable; a blank name
 * gets asynq's own text, as a Go client would.
 */
export function assertWritableQueueName(op: string, field: string, name: string): void {
  if (name.trim().length === 0) throw invalidArgument(op, field, 'queue name must contain one or more characters');
  if (!isWritableQueueName(name)) throw invalidArgument(op, field, `${field}: ${QUEUE_NAME_RULE}`);
}
