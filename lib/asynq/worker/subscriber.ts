/**
 * Listens on asynq's cancel channel. A subscribed ioredis connection can do nothing else, so
 * the subscriber uses its own duplicate of the server's connection; a PUBLISH of a task ID
 * aborts that task's signal (`context canceled`) if this server is running it.
 */
import type { Redis } from 'ioredis';
import { CANCEL_CHANNEL } from '../keys';
import type { Logger } from './config';

export class Subscriber {
  private conn: Redis | null = null;

  constructor(private readonly redis: Redis, private readonly cancelations: Map<string, () => void>, private readonly logger: Logger) {}

  /** Subscribes; ioredis resubscribes by itself after a reconnect. */
  async start(): Promise<void> {
    const conn = this.redis.duplicate();
    this.conn = conn;
    conn.on('error', (err: Error) => this.logger.warn(`cancel subscriber: ${err.message}`));
    conn.on('message', (channel: string, id: string) => {
      if (channel === CANCEL_CHANNEL) this.cancelations.get(id)?.();
    });
    await conn.subscribe(CANCEL_CHANNEL);
  }

  async stop(): Promise<void> {
    const conn = this.conn;
    this.conn = null;
    if (!conn) return;
    await conn.quit().catch(() => conn.disconnect());
  }
}
