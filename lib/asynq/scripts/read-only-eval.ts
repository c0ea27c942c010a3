/**
 * Whether a connection's server has EVAL_RO / EVALSHA_RO (Redis 7.0+).
 *
 * Redis counts EVAL/EVALSHA as writes unless the script carries a `#!lua flags=no-writes`
 * shebang, which Redis 6.x rejects as a syntax error; asynq supports Redis 6.2, so the scripts
 * stay plain and the read-only ones are sent with EVALSHA_RO instead, a read-only command:
 * served during `CLIENT PAUSE … WRITE` (manual and automatic failovers) and on replicas.
 * On Redis 6.2 the same scripts go with EVALSHA, as before.
 *
 * Cost: nothing for the console's own connections — the version comes from the INFO that
 * ioredis already sends on every (re)connect as its ready check (see learnVersionOnConnect).
 * Another connection pays one `INFO server` (about 1 KB, O(1) for Redis) at its first
 * read-only script call. The answer is kept until that connection closes, since a reconnect may
 * reach another server (a Sentinel failover, a restarted node on a new version).
 * On a cluster each master is asked on its own: nodes are not assumed to run one version (a
 * rolling upgrade mixes them), and a dead master must not stop the others' reads.
 */
import type { Redis } from 'ioredis';
import { isCluster, keySlot, nodeForSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import { isUnavailable } from '../unavailable';

const known = new WeakMap<Redis, Promise<boolean>>();
const watched = new WeakSet<Redis>();

/** Redis 7.0 added EVAL_RO and EVALSHA_RO. Valkey (redis_version 7.2.x) has them too. */
export function hasReadOnlyEval(infoServer: string): boolean {
  const major = Number(/^redis_version:(\d+)\./m.exec(infoServer)?.[1] ?? 0);
  return major >= 7;
}

function forgetOnClose(node: Redis): void {
  if (watched.has(node)) return;
  watched.add(node);
  node.on('close', () => known.delete(node));
}

/** ioredis' ready check (private, present in 5.x): INFO on every connect, parsed into fields. */
type ReadyCheck = (callback: (err: Error | null, info?: Record<string, string>) => void) => void;

/**
 * Learns `node`'s version from the INFO of ioredis' ready check on each (re)connect, so that
 * choosing EVALSHA_RO costs no round trip. Without a ready check (disabled, or INFO refused by
 * an ACL) the first read-only call asks instead.
 */
export function learnVersionOnConnect(node: Redis): void {
  const r = node as unknown as { _readyCheck?: ReadyCheck };
  const original = r._readyCheck;
  if (typeof original !== 'function') return;
  forgetOnClose(node);
  r._readyCheck = (callback) =>
    original.call(node, (err, info) => {
      const version = info?.redis_version;
      if (!err && version) known.set(node, Promise.resolve(hasReadOnlyEval(`redis_version:${version}`)));
      callback(err, info);
    });
}

/** Whether `node`'s server has EVALSHA_RO; asks once per connection (see the module comment). */
export function nodeHasReadOnlyEval(node: Redis): Promise<boolean> {
  let answer = known.get(node);
  if (answer) return answer;
  forgetOnClose(node);
  answer = node.info('server').then(hasReadOnlyEval, (err: unknown) => {
    // A server that is down or stalled fails the request as the script would have; ask again
    // next time. One that refuses INFO (an ACL without it, a proxy) gets plain EVALSHA, which
    // every version has.
    if (isUnavailable(err)) {
      known.delete(node);
      throw err;
    }
    return false;
  });
  known.set(node, answer);
  return answer;
}

/**
 * Whether a read-only script whose first key is `firstKey` can go as EVALSHA_RO: asks the
 * client itself, or on a cluster the master that serves the key's slot (EVALSHA when the slot
 * map has no owner for it: the command then fails or is redirected as any other would).
 */
export async function readOnlyEvalFor(client: RedisClient, firstKey: string | undefined): Promise<boolean> {
  if (!isCluster(client)) return nodeHasReadOnlyEval(client);
  if (firstKey === undefined) return false;
  const node = await nodeForSlot(client, keySlot(firstKey));
  return node ? nodeHasReadOnlyEval(node) : false;
}
