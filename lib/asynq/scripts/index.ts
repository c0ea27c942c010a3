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

/** The commands a pipeline builder adds, recorded so that some of them can be sent again. */
type RecordedCall = [method: string, args: unknown[]];

function record(build: (p: ChainableCommander) => void): RecordedCall[] {
  const calls: RecordedCall[] = [];
  const recorder: ChainableCommander = new Proxy({} as ChainableCommander, {
    get: (_target, method) => (...args: unknown[]) => {
      calls.push([String(method), args]);
      return recorder;
    },
  });
  build(recorder);
  return calls;
}

function replay(calls: readonly RecordedCall[]): (p: ChainableCommander) => void {
  return (p) => {
    const target = p as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const [method, args] of calls) target[method]!.apply(p, args);
  };
}

/**
 * Sends a pipeline and returns each command's reply or error, in build order. One round trip
 * on a single Redis; on a cluster one per slot the commands touch, sent concurrently (see
 * slot-pipeline.ts). When a script in it was unknown to Redis (a fresh or restarted Redis),
 * the scripts are loaded (into every master of a cluster) and only the commands that answered
 * NOSCRIPT are sent again: a NOSCRIPT reply means that command did not run, while every other
 * command of the pipeline did, and must not run twice (a batch mixing a cached and an uncached
 * script would otherwise write its first tasks twice, or report them as ID conflicts).
 */
export async function execPipeline(
  redis: RedisClient,
  build: (p: ChainableCommander) => void,
  scriptsUsed: readonly ScriptName[] = [],
  opts: SlotPipelineOptions = {},
): Promise<[Error | null, unknown][]> {
  const run = async (builder: (p: ChainableCommander) => void, o: SlotPipelineOptions) => {
    if (isCluster(redis)) return execSlotPipelines(redis, builder, o);
    const p = redis.pipeline();
    builder(p);
    return ((await p.exec()) ?? []) as [Error | null, unknown][];
  };
  const calls = record(build);
  const first = await run(replay(calls), opts);
  const missing = first.flatMap(([err], i) => (isNoScript(err) ? [i] : []));
  if (missing.length === 0) return first;
  const nodes = await masterNodes(redis);
  for (const name of scriptsUsed) await Promise.all(nodes.map((node) => node.script('LOAD', LUA_SCRIPTS[name].lua)));
  // The lead command (queue registration) ran in the first round unless it is among these.
  const again = await run(replay(missing.map((i) => calls[i]!)), missing[0] === 0 ? opts : {});
  missing.forEach((i, j) => (first[i] = again[j] ?? [new Error('no reply'), null]));
  return first;
}
