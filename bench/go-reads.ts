/**
 * Go's in-process reads: `interop-bin bench-reads` (tests/go/bench.go) runs the same four reads
 * with the real asynq v0.26.0 Inspector on a go-redis client whose hook counts round trips (one
 * per command, one per pipeline flush). The read benchmark takes only its round trips (its
 * latency is measured over HTTP, bench/http-servers.ts); the metrics case sets its in-process
 * latency of the queue list beside our in-process route.
 *
 * The binary comes from go-bin.ts; without one Go's columns are n/a. Only a missing Go is
 * tolerated; a Go that fails to build or run fails the benchmark.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import { goBinary, NO_GO } from './go-bin';

const run = promisify(execFile);

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

/**
 * Runs Go's four reads on the same Redis; several seconds, as asynq's queue list costs 1 + ~3Q
 * round trips. Resolves `ok: false` only when Go is missing; a failing build or run throws.
 */
export async function runGoReads(port: number, queue: string, taskId: string, iterations: number): Promise<GoOutcome> {
  const bin = await goBinary();
  if (bin === undefined) return { ok: false, reason: NO_GO };
  const args = ['bench-reads', '--redis', `127.0.0.1:${port}`, '--db', '0', '--queue', queue,
    '--iterations', String(iterations), '--task-id', taskId];
  const { stdout } = await run(bin, args, { timeout: 600_000, maxBuffer: 1 << 20 });
  return { ok: true, bin, reads: outputSchema.parse(JSON.parse(stdout)).reads };
}
