/**
 * Recognising asynq's handler-not-found error in the browser (lib/asynq has the exact rule; it
 * is not importable here). asynq stores `handler not found for task "<type>"`, the type quoted
 * by Go's %q, which equals JSON quoting for every printable type name.
 */
const PREFIX = 'handler not found for task ';

/** Whether `lastError` is the not-found error asynq stores for a task of `taskType`. */
export function isNotFoundError(lastError: string | null, taskType: string): boolean {
  if (!lastError?.startsWith(PREFIX)) return false;
  const quoted = lastError.slice(PREFIX.length);
  return quoted === JSON.stringify(taskType) || (quoted.length >= 2 && quoted.startsWith('"') && quoted.endsWith('"'));
}

/** The id of a not-found group's card on /failures (a task page's link scrolls to it). */
export const notFoundAnchor = (taskType: string): string => `not-found-${encodeURIComponent(taskType)}`;
