/**
 * What the core needs to know about the shape of the Redis it talks to: one server, or a
 * Redis Cluster whose 16384 hash slots are spread over several masters.
 *
 * On a cluster every command must name keys of one slot, and a pipeline goes to one node.
 * asynq's `{<q>}` hash tags put all keys of a queue in one slot, so per-queue scripts work
 * unchanged; what needs care is everything that mixes a queue's keys with global keys
 * (`asynq:queues`, `asynq:servers`, ...) or with other queues, and keyless commands (SCAN,
 * INFO, SCRIPT LOAD), which reach one node only.
 */
import type { Cluster, Redis } from 'ioredis';
import type { RedisClient } from './redis-client';
import { invalidArgument, type AsynqError } from './errors';
import { NotSentError } from './redis';

/** Whether `client` is a Redis Cluster connection. */
export function isCluster(client: RedisClient): client is Cluster {
  return (client as { isCluster?: boolean }).isCluster === true;
}

/** The number of hash slots of every Redis Cluster. */
export const SLOT_COUNT = 16384;

const CRC16_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

/** CRC16-XMODEM (polynomial 0x1021, initial 0), the checksum Redis Cluster hashes keys with. */
export function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) & 0xffff) ^ CRC16_TABLE[((crc >> 8) ^ b) & 0xff]!;
  return crc;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

/**
 * The hash slot of a key, as CLUSTER KEYSLOT computes it: when the key holds a `{`, a later `}`
 * and at least one byte between them, only the bytes between the first `{` and the next `}`
 * are hashed (the hash tag); otherwise the whole key.
 */
export function keySlot(key: string | Uint8Array): number {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  const open = bytes.indexOf(OPEN);
  if (open >= 0) {
    const close = bytes.indexOf(CLOSE, open + 1);
    if (close > open + 1) return crc16(bytes.subarray(open + 1, close)) % SLOT_COUNT;
  }
  return crc16(bytes) % SLOT_COUNT;
}

/**
 * Why a queue cannot be used on a Redis Cluster, or null when it can. A name that starts with
 * `}` (or is empty) leaves its keys `asynq:{}…` without a hash tag, so each key hashes on its
 * own and every multi-key script fails with CROSSSLOT. asynq itself does not reject such names.
 */
export function queueSlotProblem(queue: string): string | null {
  if (queue === '') return 'queue "": on Redis Cluster a queue name must not be empty (its keys would hash to different slots)';
  if (queue.startsWith('}')) {
    return `queue ${JSON.stringify(queue)}: on Redis Cluster a queue name must not start with "}" (its keys would hash to different slots)`;
  }
  return null;
}

/** The error for a queue that {@link queueSlotProblem} rejects on a cluster, else null. */
export function queueSlotError(client: RedisClient, op: string, queue: string): AsynqError | null {
  const problem = isCluster(client) ? queueSlotProblem(queue) : null;
  return problem === null ? null : invalidArgument(op, 'queue', problem);
}

/**
 * Throws invalid_argument when `client` is a cluster and `queue`'s keys would not share a slot
 * (see {@link queueSlotProblem}). No I/O: it runs before anything is sent.
 */
export function assertQueueSlot(client: RedisClient, op: string, queue: string): void {
  const err = queueSlotError(client, op, queue);
  if (err) throw err;
}

/**
 * The queues of `names` a multi-queue scan can read: all of them on one server; on a cluster
 * those without a slot problem (the queue list shows the others as problem rows).
 */
export function readableQueues(client: RedisClient, names: readonly string[]): string[] {
  return isCluster(client) ? names.filter((q) => queueSlotProblem(q) === null) : [...names];
}

/** The slot all keys of `queue` share (the slot of its `{<q>}` hash tag). */
export function queueSlot(queue: string): number {
  return keySlot(`{${queue}}`);
}

/**
 * Resolves once a cluster client knows the slot map: at once when it does, after the connect
 * attempt under way (starting one for a lazy client that never connected), and rejects at once
 * with {@link NotSentError} while it is between attempts because no node answered, like every
 * command then (see guardClusterClient): waiting for the next attempt would hold the request
 * for the whole backoff.
 */
export function clusterReady(cluster: Cluster): Promise<void> {
  const known = cluster.slots.length > 0;
  if (known && (cluster.status === 'ready' || cluster.status === 'connect')) return Promise.resolve();
  if (cluster.status === 'wait' || cluster.status === 'connecting') {
    if (cluster.status === 'wait') cluster.connect().catch(() => {});
    return new Promise((resolve, reject) => cluster.delayUntilReady((err) => (err ? reject(err) : resolve())));
  }
  return Promise.reject(new NotSentError(`not connected to the Redis Cluster (${cluster.status})`));
}

const address = (r: Redis): string => `${r.options.host ?? ''}:${r.options.port ?? ''}`;

/**
 * The connections to run a keyless command on (SCAN, INFO, SCRIPT LOAD): the client itself, or
 * every master of a cluster, sorted by address so the order is the same on every call.
 */
export async function masterNodes(client: RedisClient): Promise<Redis[]> {
  if (!isCluster(client)) return [client];
  await clusterReady(client);
  return client.nodes('master').sort((a, b) => address(a).localeCompare(address(b), 'en'));
}

/**
 * The connection that serves `slot`: the client itself, or the master the cluster's slot map
 * names for it (null when the map has no owner, e.g. during a failover).
 */
export async function nodeForSlot(client: RedisClient, slot: number): Promise<Redis | null> {
  if (!isCluster(client)) return client;
  await clusterReady(client);
  const owner = client.slots[slot]?.[0];
  return client.nodes('master').find((n) => address(n) === owner) ?? null;
}

/** `host:port` of a connection, for listings and messages. */
export function nodeAddress(node: Redis): string {
  return address(node);
}
