/**
 * What bench/run.ts needs from one benchmark. A new benchmark is a module exporting a
 * BenchCase, added to the list in run.ts; each case seeds its own data (after FLUSHALL) on the
 * run's one Redis, prints progress as it goes, and returns its section of bench/results.md.
 */
import type { Redis } from 'ioredis';

export interface BenchOptions {
  /** Timed iterations per measured operation (`--iterations`, default 200). */
  iterations: number;
  /**
   * Untimed iterations before them (`--warmup`, default 100). The performance note (§4.4) says
   * 20, but V8 still runs much of a route's code unoptimised then: at 20 the p50 of the first
   * reads measured came out 2-3× the steady value.
   */
  warmup: number;
  /** Tasks in the reads' big queue and the bulk case's largest run, which also runs a tenth of it (`--tasks`, default 1,000,000). */
  tasks: number;
  /** Minutes of the memory case's soak (`--soak-minutes N`, `--soak` for 30); none when unset. */
  soakMinutes?: number;
}

export interface BenchContext extends BenchOptions {
  url: string;
  port: number;
  /** An admin connection for seeding and checks; never the one under measurement. */
  admin: Redis;
}

export interface CaseResult {
  /** Markdown for bench/results.md, starting with a `##` heading. */
  markdown: string;
  /** Broken targets; any entry makes the run exit 1. */
  failures: string[];
}

export interface BenchCase {
  name: string;
  run(ctx: BenchContext): Promise<CaseResult>;
}
