/**
 * Telling "Redis could not serve this command" apart from "Redis answered about the data".
 * A pipeline reply carries an error per command, and callers read the replies by position:
 * a membership check that failed because its node was down must not read as "queue not found".
 */
import { NotSentError, ReplyLostError } from './redis';

/** ioredis and Node words for a connection that is closed, refused or was lost. */
const CONNECTION = /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|connect ETIMEDOUT|Socket closed unexpectedly|Command aborted due to connection close|max retries per request/i;

/** Replies of a server (or cluster) that runs nothing right now: down, loading, demoted, leaderless. */
const REFUSING = /^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN|READONLY)\b|^Too many Cluster redirections/;

/**
 * The node could not be reached: the connection was refused, closed, or lost (before or after
 * the command was written). A node that answers slowly (a timeout) or refuses is not this.
 */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof NotSentError || err instanceof ReplyLostError) return true;
  return err instanceof Error && CONNECTION.test(err.message);
}

const REDIRECT = /^(?:Too many Cluster redirections\. Last error: )?(?:ReplyError: )?(MOVED|ASK) (\d+) (\S+)/;

/**
 * A cluster redirection ioredis could not follow, as the error it means: the command's slot
 * lives on a master the client cannot reach (down, or the slot map is moving), and the node that
 * answered MOVED/ASK did not run it, so nothing was changed. Other errors come back unchanged.
 * Without this a dead master's slot answers "MOVED 6042 10.0.0.7:6379", an unexplained 500.
 */
export function explainRedirect<T>(err: T): T | NotSentError {
  const m = err instanceof Error ? REDIRECT.exec(err.message) : null;
  if (!m) return err;
  return new NotSentError(`cluster slot ${m[2]} is served by ${m[3]}, which cannot be reached (${m[1]} redirection not followed)`);
}

/**
 * Redis could not serve the command at all: unreachable, stalled (the command timed out) or
 * refusing every command (CLUSTERDOWN, LOADING, ...). Script errors, WRONGTYPE and other
 * answers about the data are not.
 */
export function isUnavailable(err: unknown): boolean {
  if (isUnreachable(err)) return true;
  return err instanceof Error && (err.message === 'Command timed out' || REFUSING.test(err.message));
}
