/**
 * A task server with asynq's processing semantics, composed like asynq's Server: processor,
 * heartbeat, cancel subscriber, syncer, recoverer, forwarder, janitor and aggregator, started
 * together and stopped in asynq's order (producers of work first, the heartbeat last, so the
 * server stays listed while it finishes).
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis-client';
import { startAggregator } from './aggregator';
import { resolveConfig, type ResolvedConfig, type ServerConfig } from './config';
import { startForwarder } from './forwarder';
import { currentHost, Heartbeat, type Identity, type ServerStatus } from './heartbeat';
import { startJanitor } from './janitor';
import type { Loop } from './loop';
import { Processor } from './processor';
import { startRecoverer } from './recoverer';
import { ServeMux, toHandlerObject, type Handler } from './serve-mux';
import { Subscriber } from './subscriber';
import { Syncer } from './syncer';

type State = 'new' | ServerStatus;

interface Running {
  processor: Processor;
  heartbeat: Heartbeat;
  subscriber: Subscriber;
  syncer: Syncer;
  loops: { forwarder: Loop; recoverer: Loop; janitor: Loop; aggregator: Loop | null };
}

/** One task server process: `start(mux)`, later `shutdown()`. */
export class Server {
  readonly config: ResolvedConfig;
  readonly id: Identity;
  private state: State = 'new';
  private running: Running | null = null;

  /**
   * `redis` is used, never closed, by the server; the cancel subscriber opens one duplicate
   * connection of its own. Throws `GroupGracePeriod cannot be less than a second`.
   */
  constructor(private readonly redis: RedisClient, config: ServerConfig = {}) {
    this.config = resolveConfig(config);
    this.id = { host: currentHost(), pid: process.pid, serverId: randomUUID() };
  }

  get status(): State {
    return this.state;
  }

  /**
   * Starts processing with `handler` (usually a ServeMux). Throws with asynq's texts when the
   * handler is missing or the server is already running, stopped or closed.
   */
  async start(handler: Handler | null | undefined): Promise<void> {
    if (!handler) throw new Error('asynq: server cannot run with nil handler');
    if (this.state === 'active') throw new Error('asynq: the server is already running');
    if (this.state === 'stopped') throw new Error('asynq: the server is in the stopped state. Waiting for shutdown.');
    if (this.state === 'closed') throw new Error('asynq: Server closed');
    this.state = 'active';
    const { redis, config } = this;
    const cancelations = new Map<string, () => void>();
    const syncer = new Syncer(config.clock, config.logger);
    const processor = new Processor(redis, config, syncer, toHandlerObject(handler), cancelations);
    const heartbeat = new Heartbeat(redis, config, this.id, () => (this.state === 'new' ? 'active' : this.state), () => processor.workers(), () =>
      handler instanceof ServeMux ? handler.patterns() : null,
    );
    const subscriber = new Subscriber(redis, cancelations, config.logger);
    heartbeat.start();
    await subscriber.start();
    syncer.start();
    const loops = {
      recoverer: startRecoverer(redis, config),
      forwarder: startForwarder(redis, config),
      janitor: startJanitor(redis, config),
      aggregator: startAggregator(redis, config),
    };
    processor.start();
    this.running = { processor, heartbeat, subscriber, syncer, loops };
  }

  /**
   * Stops taking new tasks; running tasks finish normally. Call {@link shutdown} afterwards.
   * Like asynq's Stop, only valid on an active server (otherwise a no-op).
   */
  async stop(): Promise<void> {
    if (this.state !== 'active' || !this.running) return;
    this.state = 'stopped';
    await this.running.processor.stop();
  }

  /**
   * Graceful shutdown: no new tasks, up to `shutdownTimeoutMs` for running ones, then the
   * rest is requeued (to the tail of pending, next to run) and every loop stops; the server's
   * heartbeat records are removed last. Safe to call twice.
   */
  async shutdown(): Promise<void> {
    if (this.state === 'new' || this.state === 'closed' || !this.running) return;
    this.state = 'closed';
    const { processor, heartbeat, subscriber, syncer, loops } = this.running;
    await loops.forwarder.stop();
    await processor.shutdown();
    await loops.recoverer.stop();
    await syncer.stop();
    await subscriber.stop();
    await loops.janitor.stop();
    await loops.aggregator?.stop();
    await heartbeat.stop();
    this.running = null;
  }
}
