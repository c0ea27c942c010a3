/**
 * Which live servers listen on a queue, from their heartbeats (ServerInfo.queues): the workers
 * that will take a re-run not-found task, and that need the missing handler.
 */
import type { ServerInfo } from '../types';

/** The servers of `servers` whose configured queues include `queue`, in the given order. */
export function serversListeningOn<S extends ServerInfo>(servers: readonly S[], queue: string): S[] {
  return servers.filter((s) => Object.prototype.hasOwnProperty.call(s.queues, queue));
}
