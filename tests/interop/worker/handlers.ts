/**
 * Our counterparts of the Go `serve` handlers (tests/go/serve.go): same types, same errors,
 * same results, same retry delays, so both servers must leave the same Redis state.
 */
import type { Redis } from 'ioredis';
import { ServeMux, RevokeTask, SkipRetry, type ServerConfig } from '@asynqlens/asynq';

export function interopMux(redis: Redis, recordList = ''): ServeMux {
  const untilAborted = (signal: AbortSignal) => new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
  return new ServeMux()
    .handleFunc('ok:', () => {})
    .handleFunc('result:', async (_c, t) => void (await t.resultWriter!.write(Buffer.concat([Buffer.from('done:'), t.payload]))))
    .handleFunc('fail:', (_c, t) => {
      throw new Error(`fail: ${t.type}`);
    })
    .handleFunc('flaky:', (_c, t) => {
      throw new Error(`flaky: ${t.type}`);
    })
    .handleFunc('slow:', (c) => untilAborted(c.signal))
    .handleFunc('skip:', () => {
      throw new Error(`skip: ${SkipRetry.message}`, { cause: SkipRetry });
    })
    .handleFunc('revoke:', () => {
      throw RevokeTask;
    })
    .handleFunc('count:', async (c) => void (await redis.rpush(recordList, `ts:${c.taskId}`)));
}

/** serve.go's RetryDelayFunc: none for flaky:*, an hour for everything else. */
export function interopConfig(retryDelaySeconds = 3600): ServerConfig {
  return {
    concurrency: 4,
    delayedTaskCheckIntervalMs: 1000,
    shutdownTimeoutMs: 1000,
    retryDelay: (_n, _err, task) => (task.type.startsWith('flaky:') ? 0 : retryDelaySeconds),
    logger: { info: () => {}, warn: () => {}, error: (m) => console.error(`ts server: ${m}`) },
  };
}
