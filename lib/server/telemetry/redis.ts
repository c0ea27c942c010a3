import 'server-only';
import type { Command } from 'ioredis';
import type { RedisClient } from '@asynqlens/asynq/redis-client';
import { classifyRedisFailure } from '../redis/failure';
import { telemetry } from './registry';

/**
 * CLIENT SETINFO, which ioredis sends on every connect and Redis before 7.2 refuses (ioredis
 * ignores the refusal): counted as an error, it would make every connection look failing.
 */
function isSetInfo(command: Command): boolean {
  return command.name.toLowerCase() === 'client' && String(command.args[0]).toLowerCase() === 'setinfo';
}

/**
 * Times every command `client` sends, and counts failures, into the console's telemetry
 * (registry.ts). ioredis sends every command, pipelined and scripted ones included, through
 * the client's sendCommand (a Cluster client's own, before it picks a node), so wrapping that
 * one method sees them all once. A command ioredis sends again (queued while offline, then
 * replayed) is timed once, from its first send to its reply. Cost: two performance.now() and
 * one histogram observation per command, about a microsecond.
 */
export function instrumentRedis(client: RedisClient): void {
  const t = telemetry();
  const timed = new WeakSet<Command>();
  // One child per command name: observing through it skips hashing a label object per call.
  const byName = new Map<string, ReturnType<typeof t.redisDuration.labels>>();
  const histogram = (name: string) => {
    let h = byName.get(name);
    if (!h) byName.set(name, (h = t.redisDuration.labels(name)));
    return h;
  };
  const send = client.sendCommand.bind(client) as (command: Command, ...rest: unknown[]) => unknown;
  client.sendCommand = ((command: Command, ...rest: unknown[]) => {
    if (!timed.has(command)) {
      timed.add(command);
      const name = command.name.toLowerCase();
      const started = performance.now();
      command.promise.then(
        () => histogram(name).observe((performance.now() - started) / 1000),
        (err: unknown) => {
          histogram(name).observe((performance.now() - started) / 1000);
          if (isSetInfo(command)) return;
          // The console's one classification of Redis failures; null is any other error reply
          // (WRONGTYPE, NOSCRIPT before a script is loaded, ...).
          t.redisErrors.inc({ command: name, kind: classifyRedisFailure(err) ?? 'reply' });
        },
      );
    }
    return send(command, ...rest);
  }) as RedisClient['sendCommand'];
  client.on('error', () => t.redisConnectionErrors.inc());
}
