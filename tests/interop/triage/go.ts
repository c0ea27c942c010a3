/**
 * The Go side of the triage interop suite: the real asynq v0.26.0 program of tests/go (built
 * once per test process, or ASYNQLENS_GO_BIN), run one-shot or as a long-running
 * `triage-serve`, through the one harness (../go-harness). Takes the Redis port explicitly: the
 * triage suites may run on their own redis-server (tests/integration/triage/helpers.ts).
 */
import type { GoDump } from '../go-dump';
import { goHarness, redisArgs } from '../go-harness';

export const asynqGo = goHarness('triage');

export interface GoTarget {
  port: number;
  db: number;
}

export const targetArgs = (t: GoTarget) => redisArgs(t.db, t.port);

/** Everything Go's Inspector sees (tests/go/dump.go). */
export async function goDump(t: GoTarget): Promise<GoDump> {
  return asynqGo.json<GoDump>('dump', targetArgs(t));
}

export interface GoEnqueue {
  type: string;
  queue: string;
  options?: { maxRetry?: number; retentionSeconds?: number; processInSeconds?: number };
}

/** Enqueues with Go's Client; the new task IDs, in order. */
export async function goEnqueueMany(t: GoTarget, reqs: GoEnqueue[]): Promise<string[]> {
  const out = await asynqGo.json<{ ok: boolean; id?: string; error?: string }[]>('enqueue-many', targetArgs(t), { stdin: reqs.map((r) => ({ ...r, options: r.options ?? {} })) });
  return out.map((r, i) => {
    if (!r.ok || !r.id) throw new Error(`Go enqueue ${i} failed: ${r.error}`);
    return r.id;
  });
}

export interface TriageServe {
  /** The tasks handed to a registered handler so far: { id, queue, type, pattern }. */
  handled(): { id: string; queue: string; type: string; pattern: string }[];
  /** Closes stdin (clean asynq Shutdown) and waits for the exit; SIGKILL after 20 s. */
  stop(): Promise<void>;
  stderr(): string;
}

/** Starts `triage-serve` and resolves once it printed READY. */
export async function startTriageServe(t: GoTarget, args: string[]): Promise<TriageServe> {
  const go = await asynqGo.start('triage-serve', [...targetArgs(t), ...args]);
  return {
    handled: () => go.stdout().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { id: string; queue: string; type: string; pattern: string }),
    stderr: () => go.stderr(),
    stop: () => go.stop(),
  };
}
