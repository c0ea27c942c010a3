/**
 * Go's side of the read benchmark: `interop-bin bench-reads` (tests/go/bench.go) runs the same
 * four reads with the real asynq v0.26.0 Inspector on a go-redis client whose hook counts round
 * trips (one per command, one per pipeline flush).
 *
 * The binary: $ASYNQLENS_GO_BIN (scripts/bench.sh sets it), else a fresh build into a temp dir
 * when Go is installed (so a stale tests/go/interop-bin is never measured and tests/ is not
 * written to), else a prebuilt tests/go/interop-bin. None of these: Go's columns are n/a.
 * Only a missing Go is tolerated; a Go that fails to build or run fails the benchmark.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';

const run = promisify(execFile);
const GO_DIR = new URL('../tests/go/', import.meta.url).pathname;

const goReadSchema = z.object({
  name: z.string(),
  roundTrips: z.number().int(),
  roundTripsMax: z.number().int(),
  iterations: z.number().int(),
  p50Ms: z.number(),
  p95Ms: z.number(),
});
const outputSchema = z.object({ reads: z.array(goReadSchema) });

export type GoRead = z.infer<typeof goReadSchema>;
export type GoOutcome = { ok: true; bin: string; reads: GoRead[] } | { ok: false; reason: string };

function findGo(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/local/go/bin'];
  return dirs.map((d) => join(d, 'go')).find((p) => existsSync(p));
}

/** The binary to run and a temp dir to remove afterwards; undefined when there is no Go. */
async function findBinary(): Promise<{ bin: string; tmp?: string } | undefined> {
  const fromEnv = process.env.ASYNQLENS_GO_BIN;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`ASYNQLENS_GO_BIN=${fromEnv} does not exist`);
    return { bin: fromEnv };
  }
  const prebuilt = join(GO_DIR, 'interop-bin');
  const go = findGo();
  if (go === undefined) return existsSync(prebuilt) ? { bin: prebuilt } : undefined;
  const tmp = await mkdtemp(join(tmpdir(), 'asynqlens-bench-go-'));
  // The first build downloads asynq through the module proxy; later ones hit Go's cache.
  await run(go, ['build', '-o', join(tmp, 'interop-bin'), '.'], { cwd: GO_DIR, timeout: 300_000 });
  return { bin: join(tmp, 'interop-bin'), tmp };
}

/**
 * Runs Go's four reads on the same Redis; several seconds, as asynq's queue list costs 1 + ~3Q
 * round trips. Resolves `ok: false` only when Go is missing; a failing build or run throws.
 */
export async function runGoReads(port: number, queue: string, taskId: string, iterations: number): Promise<GoOutcome> {
  const found = await findBinary();
  if (found === undefined) return { ok: false, reason: 'Go was not found (PATH, /usr/local/go/bin) and there is no tests/go/interop-bin' };
  const args = ['bench-reads', '--redis', `127.0.0.1:${port}`, '--db', '0', '--queue', queue,
    '--iterations', String(iterations), '--task-id', taskId];
  try {
    const { stdout } = await run(found.bin, args, { timeout: 600_000, maxBuffer: 1 << 20 });
    return { ok: true, bin: found.bin, reads: outputSchema.parse(JSON.parse(stdout)).reads };
  } finally {
    if (found.tmp) await rm(found.tmp, { recursive: true, force: true });
  }
}
