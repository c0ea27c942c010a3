/**
 * Real Go asynq servers for the end-to-end suite: the interop program of tests/go (built by
 * scripts/ensure-go.sh, as scripts/test.sh does before this suite), run as `triage-serve` (a
 * server whose mux registers exactly the given patterns) or one-shot `enqueue-many` (Go's
 * Client). Its own few lines because tests/interop/go-harness.ts is bound to Vitest (inject,
 * describe), which the spec runner is not.
 */
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Redis } from 'ioredis';

const goDir = join(import.meta.dirname, '..', '..', 'go');

/** The program built on asynq `release` (tests/go/asynq-versions.txt): v0.26.0 is `interop-bin`. */
export function goBinary(release: 'v0.26.0' | 'v0.25.1' | 'v0.24.1'): string {
  const bin = join(goDir, release === 'v0.26.0' ? 'interop-bin' : `interop-bin-${release}`);
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run scripts/ensure-go.sh (scripts/test.sh does)`);
  return bin;
}

/** `--redis 127.0.0.1:<port> --db <db>` of the suite's Redis connection. */
const redisArgs = (redis: Redis) => ['--redis', `127.0.0.1:${redis.options.port ?? 6379}`, '--db', String(redis.options.db ?? 0)];

export interface GoServer {
  /** The Go process' pid, which asynq writes in its server record. */
  pid: number;
  /** Closes stdin (a clean asynq Shutdown, which removes its server record) and waits; SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** Starts `triage-serve` on `release` with `args` and resolves once it printed READY. */
export async function startGoServer(redis: Redis, release: Parameters<typeof goBinary>[0], args: string[]): Promise<GoServer> {
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(goBinary(release), ['triage-serve', ...redisArgs(redis), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`triage-serve (${release}) printed no READY in 15 s: ${err}`)), 15_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('READY')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`triage-serve (${release}) exited with ${code}: ${err}`));
    });
  });
  return {
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.stdin.end();
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(kill);
    },
  };
}

export interface GoEnqueue {
  type: string;
  queue: string;
  options?: { maxRetry?: number; retentionSeconds?: number; group?: string };
}

/** Enqueues with Go's Client (v0.26.0); throws on any refusal. */
export function goEnqueue(redis: Redis, reqs: GoEnqueue[]): void {
  const r = spawnSync(goBinary('v0.26.0'), ['enqueue-many', ...redisArgs(redis)], { input: JSON.stringify(reqs.map((q) => ({ ...q, options: q.options ?? {} }))), encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(`enqueue-many exited with ${r.status}: ${r.stderr}`);
  const results = JSON.parse(r.stdout) as { ok: boolean; error?: string }[];
  const bad = results.find((x) => !x.ok);
  if (bad) throw new Error(`Go enqueue refused: ${bad.error}`);
}
