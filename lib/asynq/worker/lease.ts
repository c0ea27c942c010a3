/**
 * The in-memory side of a task's lease: when it runs out unless the heartbeat extends it,
 * and a way to tell the worker that it has run out (then the server stops writing anything
 * for that task and leaves it to a recoverer, as asynq does).
 */
import type { Clock } from '../clock';

/** One task's lease as this server sees it. */
export class Lease {
  private expiresAtMs: number;
  private onExpiredListener: (() => void) | null = null;
  private expired = false;

  constructor(expiresAt: Date, private readonly clock: Clock) {
    this.expiresAtMs = expiresAt.getTime();
  }

  get expiresAt(): Date {
    return new Date(this.expiresAtMs);
  }

  /** Whether writes for the task may still happen: the expiry is now or later. */
  isValid(): boolean {
    return this.clock.now().getTime() <= this.expiresAtMs;
  }

  /** Moves the expiry after a successful extension; false if the lease already ran out. */
  reset(expiresAt: Date): boolean {
    if (!this.isValid()) return false;
    this.expiresAtMs = expiresAt.getTime();
    return true;
  }

  /** Called by the heartbeat; tells the worker only if the lease really ran out. */
  notifyExpired(): boolean {
    if (this.isValid()) return false;
    if (!this.expired) {
      this.expired = true;
      this.onExpiredListener?.();
    }
    return true;
  }

  /**
   * Calls `listener` once when the heartbeat reports the lease expired (at once if it already
   * did). One listener per lease: the attempt that holds it.
   */
  onExpired(listener: () => void): void {
    if (this.expired) listener();
    else this.onExpiredListener = listener;
  }
}
