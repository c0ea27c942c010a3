/**
 * Pipelines on a Redis Cluster. ioredis sends a cluster pipeline to one node and refuses one
 * whose keys live on different nodes; Redis refuses a command whose keys span slots. The core
 * builds pipelines freely (a queue check beside a queue's script, one GET per server), so on a
 * cluster the built commands are split by slot into one pipeline per slot, sent concurrently,
 * and the replies put back in the order the commands were built. Nothing is lost by the split:
 * a pipeline was never atomic.
 */
import type { ChainableCommander, Cluster, Command, Pipeline } from 'ioredis';
import { AsynqError } from './errors';
import { clusterReady, keySlot } from './topology';

export type PipelineReply = [Error | null, unknown];

export interface SlotPipelineOptions {
  /**
   * Run the commands of the first command's slot before all others (which then run
   * concurrently). Enqueue uses it to register the queue in `asynq:queues` before the task is
   * written, the order asynq's client keeps.
   */
  leadFirst?: boolean;
}

/**
 * The slot of a command's keys; -1 for a keyless one. A command whose keys span slots would be
 * refused by Redis with CROSSSLOT: that only happens for a queue named with a leading `}` (the
 * services reject those before any I/O), so it is reported as that rule rather than as a 500.
 */
export function commandSlot(cmd: Command): number {
  const keys = cmd.getKeys();
  if (keys.length === 0) return -1;
  const slot = keySlot(keys[0]!);
  for (const key of keys) {
    if (keySlot(key) !== slot) throw crossSlot(cmd.name, keys);
  }
  return slot;
}

/** The error for keys that Redis Cluster cannot serve in one command. */
export function crossSlot(command: string, keys: readonly (string | Buffer)[]): AsynqError {
  const shown = keys.slice(0, 3).map((key) => JSON.stringify(key.toString()));
  const byName = keys.some((key) => key.toString().startsWith('asynq:{}'));
  const message = `${command}: keys ${shown.join(', ')}${keys.length > 3 ? ', ...' : ''} hash to different Redis Cluster slots`;
  return byName
    ? new AsynqError('INVALID_ARGUMENT', 'invalid_argument', `${message}: on Redis Cluster a queue name must not start with "}"`, command, { field: 'queue' })
    : new AsynqError('INTERNAL', 'internal', message, command);
}

/**
 * Builds a pipeline with `build`, then sends it as one pipeline per slot (keyless commands go
 * together to any node). Round trips: one per distinct slot, concurrent (two waves with
 * `leadFirst`). Each reply is `[error, value]` in build order, as `Pipeline.exec` gives.
 */
export async function execSlotPipelines(
  cluster: Cluster,
  build: (p: ChainableCommander) => void,
  { leadFirst = false }: SlotPipelineOptions = {},
): Promise<PipelineReply[]> {
  await clusterReady(cluster);
  const recorder = cluster.pipeline() as unknown as Pipeline;
  const recorded: Command[] = [];
  recorder.sendCommand = (cmd: Command) => {
    recorded.push(cmd);
    return recorder;
  };
  build(recorder);
  const groups = new Map<number, number[]>();
  recorded.forEach((cmd, i) => {
    const slot = commandSlot(cmd);
    const group = groups.get(slot);
    if (group) group.push(i);
    else groups.set(slot, [i]);
  });
  const out: PipelineReply[] = new Array<PipelineReply>(recorded.length);
  const send = async (indexes: number[]): Promise<void> => {
    const p = cluster.pipeline() as unknown as Pipeline;
    for (const i of indexes) p.sendCommand(recorded[i]!);
    const replies = ((await (p as unknown as ChainableCommander).exec()) ?? []) as PipelineReply[];
    indexes.forEach((i, j) => (out[i] = replies[j] ?? [new Error('no reply'), null]));
  };
  const waves = [...groups.values()];
  if (leadFirst && waves.length > 1) await send(waves.shift()!);
  await Promise.all(waves.map(send));
  return out;
}
