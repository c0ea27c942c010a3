/**
 * asynq's client registers a task's queue (SADD asynq:queues) before writing the task; every
 * enqueue path here does so through this one call.
 */
import type { RedisClient } from '../redis-client';
import * as k from '../keys';
import { execPipeline, pipeScript, type ScriptArg, type ScriptName } from '../scripts';

/** A script call that writes tasks of one queue. */
export interface ScriptCall {
  script: ScriptName;
  keys: string[];
  args: ScriptArg[];
}

/**
 * Registers the queue and runs the script in one pipeline, the queue first as asynq's client
 * does: one round trip (on a Cluster, asynq:queues is in another slot: one per slot, the
 * queue's registration sent first). Returns the script's reply; throws its error.
 */
export async function registerAndRun(redis: RedisClient, queue: string, call: ScriptCall): Promise<unknown> {
  const [, [err, reply]] = await execPipeline(
    redis,
    (p) => {
      p.sadd(k.ALL_QUEUES, queue);
      pipeScript(p, call.script, call.keys, call.args);
    },
    [call.script],
    { leadFirst: true },
  ) as [unknown, [Error | null, unknown]];
  if (err) throw err;
  return reply;
}
