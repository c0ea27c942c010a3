/**
 * Recognising asynq's handler-not-found failures and saying in plain words what they mean.
 */
import { goQuote } from '../errors';
import { HANDLER_NOT_FOUND } from '../worker/serve-mux';

/** The not-found message a Go worker stores for a type: `handler not found for task "<type>"`. */
export const handlerNotFoundMessage = (taskType: string): string => `${HANDLER_NOT_FOUND} ${goQuote(taskType)}`;

/**
 * Whether `errorMsg` is exactly the error asynq's not-found handler stores for a task of
 * `taskType` (`fmt.Errorf("%w %q", ErrHandlerNotFound, type)`, which this core's worker writes
 * byte for byte too). The one recogniser: every surface asks it, the browser through the API.
 * A wrapped or reworded error — a middleware's `x: handler not found …` — is a different
 * failure and is not counted.
 */
export function isHandlerNotFoundError(errorMsg: string, taskType: string): boolean {
  return errorMsg.startsWith(HANDLER_NOT_FOUND) && errorMsg === handlerNotFoundMessage(taskType);
}

/** What a not-found group means and what to do about it, in plain words. */
export function notFoundExplanation(taskType: string): string {
  return (
    `No worker registered a handler for ${goQuote(taskType)} when these ran — usually clients deployed before workers. ` +
    'Deploy a worker with a handler for it, then re-run these tasks.'
  );
}
