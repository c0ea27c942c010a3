/**
 * Runs the core's Lua scripts by SHA, loading a script only when Redis answers NOSCRIPT.
 * Replies come back with bulk strings as Buffers: they carry protobuf bytes, which a UTF-8
 * decode would corrupt.
 *
 * Read-only scripts (`@readonly` in their header) run with EVALSHA_RO on Redis 7+ (see
 * read-only-eval.ts): Redis counts EVALSHA as a write whatever the script does, so during
 * `CLIENT PAUSE … WRITE` (a failover) it would hold every dashboard read.
 */
import { createHash } from 'node:crypto';
import type { ChainableCommander, Redis } from 'ioredis';
import { ALL_QUEUES } from '../keys';
import { crossSlot, execSlotPipelines, type SlotPipelineOptions } from '../slot-pipeline';
import { isCluster, keySlot, masterNodes, nodeForSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import { explainRedirect, isUnavailable } from '../unavailable';
import { readOnlyEvalFor } from './read-only-eval';
import { LUA_SCRIPTS } from './registry.gen';

export type ScriptName = keyof typeof LUA_SCRIPTS;
export type ScriptArg = string | number | Buffer;

const SHAS = Object.fromEntries(
  Object.entries(LUA_SCRIPTS).map(([name, s]) => [name, createHash('sha1').update(s.lua).digest('hex')]),
) as Record<ScriptName, string>;

/** SHA → script name of the read-only scripts, to recognise their calls in a recorded pipeline. */
const READ_ONLY_SHAS = new Map(
  (Object.keys(LUA_SCRIPTS) as ScriptName[]).filter((name) => LUA_SCRIPTS[name].readonly).map((name) => [SHAS[name], name]),
);

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
 * Runs one script. One round trip (EVALSHA, or EVALSHA_RO for a read-only script on Redis 7+);
 * two the first time a Redis sees the script (NOSCRIPT, then EVAL or EVAL_RO, which also caches
 * it); plus, once per connection, the version check of a read-only script's first call (one
 * INFO server). On a cluster it goes to the node of its keys, which must share one slot
 * (checked here, before anything is sent).
 */
export async function runScript(
  redis: RedisClient,
  name: ScriptName,
  keys: readonly string[],
  args: readonly ScriptArg[],
): Promise<unknown> {
  const n = keyCount(name, keys);
  if (isCluster(redis) && keys.some((key) => keySlot(key) !== keySlot(keys[0]!))) throw crossSlot(name, keys);
  const ro = LUA_SCRIPTS[name].readonly && (await readOnlyEvalFor(redis, keys[0]));
  try {
    return await redis.callBuffer(ro ? 'EVALSHA_RO' : 'EVALSHA', SHAS[name], n, ...keys, ...args);
  } catch (err) {
    if (!isNoScript(err)) throw explainRedirect(err);
    return redis.callBuffer(ro ? 'EVAL_RO' : 'EVAL', LUA_SCRIPTS[name].lua, n, ...keys, ...args).catch((e: unknown) => {
      throw explainRedirect(e);
    });
  }
}

/**
 * Loads a script into the server that will run it (on a cluster, the master of `key`'s slot)
 * before a long run of its calls. Its first call is then an EVALSHA like every other: without
 * this, a Redis that lacks the script answers NOSCRIPT and the script goes out whole with an
 * EVAL that compiles it and runs the batch in one call (measured: 7.9 ms, beside 1 ms calls).
 * SCRIPT LOAD compiles in a call of its own, well under 1 ms, and compiles nothing when the
 * server has the script already. One round trip.
 */
export async function loadScript(redis: RedisClient, name: ScriptName, key: string): Promise<void> {
  const node = await nodeForSlot(redis, keySlot(key));
  if (!node) return; // no master known for the slot: the first call's NOSCRIPT path loads it
  await node.script('LOAD', LUA_SCRIPTS[name].lua).catch((err: unknown) => {
    throw explainRedirect(err);
  });
}

/**
 * Adds a script call to a pipeline built for {@link execPipeline}, which sends a read-only
 * script's call as EVALSHA_RO where the server has it.
 */
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

/**
 * Turns the recorded EVALSHA calls of read-only scripts into EVALSHA_RO where the server that
 * will run them has it: the client itself, or on a cluster the master of the call's first key.
 * Costs nothing once each connection's version is known (see read-only-eval.ts).
 */
async function useReadOnlyEval(redis: RedisClient, calls: RecordedCall[]): Promise<void> {
  const candidates = calls.filter(([method, args]) => method === 'callBuffer' && args[0] === 'EVALSHA' && READ_ONLY_SHAS.has(String(args[1])));
  await Promise.all(
    candidates.map(async (call) => {
      const firstKey = Number(call[1][2]) > 0 ? String(call[1][3]) : undefined;
      if (await readOnlyEvalFor(redis, firstKey)) call[1] = ['EVALSHA_RO', ...call[1].slice(1)];
    }),
  );
}

/** SHA → name of every script, to know which script a NOSCRIPT reply was about. */
const BY_SHA = new Map((Object.keys(SHAS) as ScriptName[]).map((name) => [SHAS[name], name]));

/**
 * Loads the scripts of the calls that answered NOSCRIPT into the servers that run them: the
 * client itself, or on a cluster the master of each call's slot, and no other: another master
 * may be down, and a healthy master's reads must not fail on it. One SCRIPT LOAD per server
 * and script, concurrent. `fallback` names the scripts of a call whose SHA is not ours.
 */
async function loadScripts(redis: RedisClient, missing: readonly RecordedCall[], fallback: readonly ScriptName[]): Promise<void> {
  const loads = new Map<Redis, Set<ScriptName>>();
  for (const [, args] of missing) {
    const name = BY_SHA.get(String(args[1]));
    const firstKey = Number(args[2]) > 0 ? String(args[3]) : undefined;
    const nodes = !isCluster(redis) ? [redis] : firstKey === undefined ? await masterNodes(redis) : [await nodeForSlot(redis, keySlot(firstKey))];
    for (const node of nodes) {
      if (!node) continue;
      const names = loads.get(node) ?? new Set<ScriptName>();
      for (const n of name ? [name] : fallback) names.add(n);
      loads.set(node, names);
    }
  }
  await Promise.all([...loads].flatMap(([node, names]) => [...names].map((n) => node.script('LOAD', LUA_SCRIPTS[n].lua))));
}

/**
 * The first reply whose error says Redis could not serve the command (unreachable, stalled,
 * refusing). The pipeline then fails as a whole with it: callers read replies by position, and
 * a membership check that failed on a down node must not read as "queue not found".
 */
function unavailableError(replies: readonly [Error | null, unknown][]): Error | null {
  for (const [err] of replies) {
    const explained = explainRedirect(err);
    if (explained instanceof Error && isUnavailable(explained)) return explained;
  }
  return null;
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
 * the scripts are loaded (on a cluster, into the masters that answered so; see loadScripts)
 * and only the commands that answered NOSCRIPT are sent again: a NOSCRIPT reply means that
 * command did not run, while every other command of the pipeline did, and must not run twice
 * (a batch mixing a cached and an uncached script would otherwise write its first tasks twice,
 * or report them as ID conflicts).
 * A command that Redis could not serve at all (its node down, stalled or refusing) fails the
 * whole call with its error (see {@link unavailableError}); nothing is sent again.
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
  await useReadOnlyEval(redis, calls);
  const first = await run(replay(calls), opts);
  const down = unavailableError(first);
  if (down) throw down;
  const missing = first.flatMap(([err], i) => (isNoScript(err) ? [i] : []));
  if (missing.length === 0) return first;
  await loadScripts(redis, missing.map((i) => calls[i]!), scriptsUsed);
  // The lead command (queue registration) ran in the first round unless it is among these.
  const again = await run(replay(missing.map((i) => calls[i]!)), missing[0] === 0 ? opts : {});
  const downAgain = unavailableError(again);
  if (downAgain) throw downAgain;
  missing.forEach((i, j) => (first[i] = again[j] ?? [new Error('no reply'), null]));
  return first;
}

/**
 * Runs a script that checks the queue's registration itself when given asynq:queues as its
 * last key and the queue name as its last argument (get-task.lua, list-tasks.lua): -1 when the
 * queue is not registered, else the script's reply. On a single Redis that is one command (a
 * pipeline of two costs this process about twice the CPU of one call); on a Cluster, where
 * asynq:queues is in another slot, SISMEMBER goes beside the script in one round trip.
 */
export async function runScriptInQueue(
  redis: RedisClient,
  name: ScriptName,
  qname: string,
  keys: readonly string[],
  args: readonly ScriptArg[],
): Promise<unknown> {
  if (!isCluster(redis)) return runScript(redis, name, [...keys, ALL_QUEUES], [...args, qname]);
  const [[, member], [err, reply]] = (await execPipeline(redis, (p) => {
    p.sismember(ALL_QUEUES, qname);
    pipeScript(p, name, keys, args);
  }, [name])) as [[Error | null, unknown], [Error | null, unknown]];
  if (member !== 1) return -1;
  if (err) throw err;
  return reply;
}
