/**
 * The server's heartbeat (asynq's heartbeater): every 5 s it rewrites the ServerInfo and the
 * WorkerInfo of each task in flight with a 10 s TTL, so Go's Inspector, asynqmon and our own
 * inspector list the server while it lives and forget it soon after it dies; and it extends
 * the lease of every running task, or tells the worker its lease has run out.
 */
import { hostname } from 'node:os';
import type { RedisClient } from '../redis-client';
import type { ServerInfo, WorkerInfo } from '../types';
import type { ResolvedConfig } from './config';
import { every, type Loop } from './loop';
import { clearServerState, extendLease, writeServerState } from './rdb/server-state';
import type { ActiveWorker } from './run-task';

/** The status strings asynq writes into ServerInfo. */
export type ServerStatus = 'active' | 'stopped' | 'closed';

/** What names a server in Redis: `asynq:servers:{<host>:<pid>:<serverId>}`. */
export interface Identity {
  host: string;
  pid: number;
  serverId: string;
}

/** `os.hostname()`, or asynq's fallback when the system cannot say. */
export function currentHost(): string {
  try {
    return hostname() || 'unknown-host';
  } catch {
    return 'unknown-host';
  }
}

/** The heartbeat loop of one server. */
export class Heartbeat {
  private loop: Loop | null = null;
  private startedAt = new Date(0);

  constructor(
    private readonly redis: RedisClient,
    private readonly config: ResolvedConfig,
    readonly id: Identity,
    private readonly status: () => ServerStatus,
    private readonly workers: () => ActiveWorker[],
    /** The ServeMux's patterns, published with the record (published-patterns.ts); null for another handler. */
    private readonly patterns: () => string[] | null = () => null,
  ) {}

  start(): void {
    this.startedAt = this.config.clock.now();
    this.loop = every(this.config.heartbeatIntervalMs, () => this.beat(), (err) => this.config.logger.error(`heartbeat: ${String(err)}`));
  }

  /** Stops beating and removes the server's records. */
  async stop(): Promise<void> {
    await this.loop?.stop();
    await clearServerState(this.redis, this.id.host, this.id.pid, this.id.serverId).catch((err: unknown) =>
      this.config.logger.error(`could not clear server state: ${String(err)}`),
    );
  }

  /**
   * One beat: two round trips for the records (O(W)), then one ZADD XX per queue with tasks
   * whose lease is still valid. An expired lease is reported to its worker instead of
   * extended: the task may already be someone else's.
   */
  async beat(): Promise<void> {
    const { config, id } = this;
    const now = config.clock.now();
    const ws = this.workers();
    const info: ServerInfo = {
      ...id,
      concurrency: config.concurrency,
      queues: config.queues,
      strictPriority: config.strictPriority,
      status: this.status(),
      startedAt: this.startedAt,
      activeWorkerCount: ws.length,
    };
    const patterns = this.patterns();
    if (patterns) info.patterns = patterns;
    const workerInfos: WorkerInfo[] = ws.map((w) => ({
      ...id,
      taskId: w.msg.id,
      taskType: w.msg.type,
      taskPayload: w.msg.payload,
      queue: w.msg.queue,
      startedAt: w.startedAt,
      deadline: w.deadline,
    }));
    const ttlSeconds = Math.round((config.heartbeatIntervalMs * 2) / 1000) || 1;
    const byQueue = new Map<string, ActiveWorker[]>();
    for (const w of ws) {
      if (w.lease.isValid()) byQueue.set(w.msg.queue, [...(byQueue.get(w.msg.queue) ?? []), w]);
      else w.lease.notifyExpired();
    }
    await writeServerState(this.redis, info, workerInfos, ttlSeconds, now).catch((err: unknown) =>
      config.logger.error(`could not write server state: ${String(err)}`),
    );
    for (const [q, list] of byQueue) {
      try {
        const expiresAt = await extendLease(this.redis, q, list.map((w) => w.msg.id), config.clock.now());
        for (const w of list) w.lease.reset(expiresAt);
      } catch (err) {
        config.logger.error(`could not extend leases in queue ${q}: ${String(err)}`);
      }
    }
  }
}
