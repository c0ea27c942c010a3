/**
 * Runs the core's Lua scripts by SHA, loading a script only when Redis answers NOSCRIPT.
 * Replies come back with bulk strings as Buffers: they carry protobuf bytes, which a UTF-8
 * decode would corrupt.
 */
import { createHash } from 'node:crypto';
import type { ChainableCommander } from 'ioredis';
import { crossSlot, execSlotPipelines, type SlotPipelineOptions } from '../slot-pipeline';
import { isCluster, keySlot, masterNodes, type RedisClient } from '../topology';
import { LUA_SCRIPTS } from './registry.gen';

export type ScriptName = keyof typeof LUA_SCRIPTS;
export type ScriptArg = string | number | Buffer;

const SHAS = Object.fromEntries(
  Object.entries(LUA_SCRIPTS).map(([name, s]) => [name, createHash('sha1').update(s.lua).digest('hex')]),
) as Record<ScriptName, string>;

function isNoScript(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('NOSCRIPT');
}

function keyCount(name: ScriptName, keys: readonly string[]): number {
  const declared = LUA_SCRIPTS[name].numberOfKeys;
  if (declared >= 0 && declared !== keys.length) {
    throw new Error(`script ${name} takes ${declared} keys, got ${keys.length}`);
  }
  return keys.length;
}

/**
 * Runs one script. One round trip (EVALSHA); two the first time a Redis sees the script
 * (EVALSHA answered NOSCRIPT, then EVAL, which also caches it). On a cluster it goes to the
 * node of its keys, which must share one slot (checked here, before anything is sent).
 */
export async function runScript(
  redis: RedisClient,
  name: ScriptName,
  keys: readonly string[],
  args: readonly ScriptArg[],
): Promise<unknown> {
  const n = keyCount(name, keys);
  if (isCluster(redis) && keys.some((key) => keySlot(key) !== keySlot(keys[0]!))) throw crossSlot(name, keys);
  try {
    return await redis.callBuffer('EVALSHA', SHAS[name], n, ...keys, ...args);
  } catch (err) {
    if (!isNoScript(err)) throw err;
    return redis.callBuffer('EVAL', LUA_SCRIPTS[name].lua, n, ...keys, ...args);
  }
}

/** Adds a script call to a pipeline (see {@link execPipeline}). */
export function pipeScript(
  p: ChainableCommander,
  name: ScriptName,
  keys: readonly string[],
  args: readonly ScriptArg[],
): void {
  p.callBuffer('EVALSHA', SHAS[name], keyCount(name, keys), ...keys, ...args);
}

/**
 * Sends a pipeline and returns each command's reply or error, in build order. One round trip
 * on a single Redis; on a cluster one per slot the commands touch, sent concurrently (see
 * slot-pipeline.ts). When a script in it was unknown to Redis, the scripts are loaded (into
 * every master of a cluster) and the pipeline is sent once more — safe because a NOSCRIPT
 * reply means that script did not run.
 */
export async function execPipeline(
  redis: RedisClient,
  build: (p: ChainableCommander) => void,
  scriptsUsed: readonly ScriptName[] = [],
  opts: SlotPipelineOptions = {},
): Promise<[Error | null, unknown][]> {
  const run = async () => {
    if (isCluster(redis)) return execSlotPipelines(redis, build, opts);
    const p = redis.pipeline();
    build(p);
    return ((await p.exec()) ?? []) as [Error | null, unknown][];
  };
  const first = await run();
  if (!first.some(([err]) => isNoScript(err))) return first;
  const nodes = await masterNodes(redis);
  for (const name of scriptsUsed) await Promise.all(nodes.map((node) => node.script('LOAD', LUA_SCRIPTS[name].lua)));
  return run();
}
