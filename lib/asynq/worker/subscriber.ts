/**
 * Listens on asynq's cancel channel. A subscribed ioredis connection can do nothing else, so
 * the subscriber uses its own duplicate of the server's connection; a PUBLISH of a task ID
 * aborts that task's signal (`context canceled`) if this server is running it.
 */
import { isCluster } from '../topology';
import type { RedisClient } from '../redis-client';
import { CANCEL_CHANNEL } from '../keys';
import type { Logger } from './config';

/** asynq retries a failed SUBSCRIBE every 5 s. */
const RETRY_MS = 5000;

/** The cancel-channel subscription of one server. */
export class Subscriber {
  private conn: RedisClient | null = null;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly redis: RedisClient, private readonly cancelations: Map<string, () => void>, private readonly logger: Logger) {}

  /**
   * Subscribes, retrying every 5 s until it works (ioredis resubscribes by itself after a
   * later reconnect, but only to channels it once subscribed). Resolves after the first try.
   */
  async start(): Promise<void> {
    // The duplicate copies the server connection's options as they are now, and a connection
    // made by connect() turns its offline queue off after its first connect (so requests fail
    // fast): the lazy duplicate would then refuse its very first SUBSCRIBE. A subscriber wants
    // the opposite, SUBSCRIBE waiting for its connect, so the queue is turned back on here.
    const conn = isCluster(this.redis) ? this.redis.duplicate([], { enableOfflineQueue: true }) : this.redis.duplicate({ enableOfflineQueue: true });
    this.conn = conn;
    conn.on('error', (err: Error) => this.logger.warn(`cancel subscriber: ${err.message}`));
    conn.on('message', (channel: string, id: string) => {
      if (channel === CANCEL_CHANNEL) this.cancelations.get(id)?.();
    });
    const attempt = async (): Promise<void> => {
      try {
        await conn.subscribe(CANCEL_CHANNEL);
      } catch (err) {
        this.logger.error(`cannot subscribe to the cancel channel, retrying in 5 s: ${String(err)}`);
        if (!this.stopped) this.retry = setTimeout(() => void attempt(), RETRY_MS);
      }
    };
    await attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const conn = this.conn;
    this.conn = null;
    if (!conn) return;
    await conn.quit().catch(() => conn.disconnect());
  }
}
