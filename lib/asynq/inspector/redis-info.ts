/**
 * Redis INFO, parsed into sections.
 */
import type { Cluster } from 'ioredis';
import { isCluster, masterNodes, nodeAddress } from '../topology';
import type { RedisClient } from '../redis-client';

export type RedisInfo = Record<string, Record<string, string>>;

/** Parses the text of INFO into `{ section: { field: value } }` (section names lower-case). */
export function parseRedisInfo(text: string): RedisInfo {
  const info: RedisInfo = {};
  let section = 'default';
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('# ')) {
      section = line.slice(2).trim().toLowerCase();
      info[section] ??= {};
    } else if (line.includes(':')) {
      const i = line.indexOf(':');
      (info[section] ??= {})[line.slice(0, i)] = line.slice(i + 1);
    }
  }
  return info;
}

/** INFO of the server. One round trip; on a cluster one per master, concurrent (see below). */
export async function getRedisInfo(redis: RedisClient): Promise<RedisInfo> {
  if (!isCluster(redis)) return parseRedisInfo(await redis.info());
  const nodes = await masterNodes(redis);
  const infos = await Promise.all(nodes.map(async (n) => parseRedisInfo(await n.info())));
  return mergeClusterInfo(nodes.map(nodeAddress), infos, slotRanges(redis));
}

/** Fields that add up across masters: the totals an operator reads for the whole cluster. */
const SUMMED: Record<string, string[]> = {
  memory: ['used_memory', 'used_memory_rss'],
  clients: ['connected_clients', 'blocked_clients'],
  stats: ['instantaneous_ops_per_sec', 'total_commands_processed', 'keyspace_hits', 'keyspace_misses', 'expired_keys', 'evicted_keys'],
};

/** Each master's slot ranges, `0-5460,10923-10923`, from the client's slot map. */
function slotRanges(cluster: Cluster): Map<string, string> {
  const ranges = new Map<string, [number, number][]>();
  cluster.slots.forEach((owners, slot) => {
    const owner = owners?.[0];
    if (owner === undefined) return;
    const list = ranges.get(owner) ?? [];
    const last = list[list.length - 1];
    if (last && last[1] === slot - 1) last[1] = slot;
    else list.push([slot, slot]);
    ranges.set(owner, list);
  });
  return new Map([...ranges].map(([owner, list]) => [owner, list.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',')]));
}

/**
 * One INFO for a cluster: the first master's sections (version, mode, config), with the fields
 * in SUMMED and the keyspace added up over every master, plus a `cluster nodes` section with
 * one line per master (slots, keys, memory, clients, ops/s) so no node's numbers are hidden.
 */
export function mergeClusterInfo(addresses: readonly string[], infos: readonly RedisInfo[], slots: Map<string, string>): RedisInfo {
  const merged: RedisInfo = Object.fromEntries(Object.entries(infos[0] ?? {}).map(([sec, fields]) => [sec, { ...fields }]));
  const num = (v: string | undefined) => (v !== undefined && Number.isFinite(Number(v)) ? Number(v) : 0);
  for (const [section, fields] of Object.entries(SUMMED)) {
    for (const field of fields) {
      if (merged[section]?.[field] === undefined) continue;
      merged[section][field] = String(infos.reduce((n, info) => n + num(info[section]?.[field]), 0));
    }
  }
  const keyspace: Record<string, { keys: number; expires: number }> = {};
  for (const info of infos) {
    for (const [db, text] of Object.entries(info.keyspace ?? {})) {
      const acc = (keyspace[db] ??= { keys: 0, expires: 0 });
      acc.keys += num(/keys=(\d+)/.exec(text)?.[1]);
      acc.expires += num(/expires=(\d+)/.exec(text)?.[1]);
    }
  }
  merged.keyspace = Object.fromEntries(Object.entries(keyspace).map(([db, v]) => [db, `keys=${v.keys},expires=${v.expires}`]));
  merged['cluster nodes'] = Object.fromEntries(
    addresses.map((addr, i) => {
      const info = infos[i] ?? {};
      const keys = Object.values(info.keyspace ?? {}).reduce((n, t) => n + num(/keys=(\d+)/.exec(t)?.[1]), 0);
      return [addr, `role=master slots=${slots.get(addr) ?? ''} keys=${keys} used_memory=${info.memory?.used_memory ?? ''} connected_clients=${info.clients?.connected_clients ?? ''} ops_per_sec=${info.stats?.instantaneous_ops_per_sec ?? ''}`];
    }),
  );
  return merged;
}
