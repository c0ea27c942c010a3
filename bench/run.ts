/**
 * Runs the benchmarks on a private redis-server and writes bench/results.md.
 *
 *   npx tsx bench/run.ts [--iterations N] [--warmup N] [--tasks N] [--only CASE] [--soak-minutes N | --soak]
 *
 * With --only, the other cases' sections of the existing results.md are kept, marked with the
 * date of the run that produced them.
 * Exits 1 when a case reports a broken target (e.g. more round trips than asynq's Go
 * Inspector), after printing and writing the results.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { startRedisServer } from '../scripts/support/redis-server';
import type { BenchCase, BenchOptions } from './bench-case';
import { bulkCase } from './bulk-case';
import { diagnosticsCase } from './diagnostics-case';
import { describeAndPin } from './machine';
import { metricsCase } from './metrics-case';
import { readsCase } from './reads-case';
import { requestBudgetCase } from './request-budget-case';
import { searchCase } from './search-case';
import { fileHeader } from './report';
import { memoryCase } from './memory-case';
import { scaleCase } from './scale-case';
import { throughputCase } from './throughput-case';
import { uiCase } from './ui-case';

const CASES: BenchCase[] = [readsCase, requestBudgetCase, bulkCase, diagnosticsCase, searchCase, uiCase, metricsCase, scaleCase, memoryCase, throughputCase];
const RESULTS = new URL('./results.md', import.meta.url);

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${value}`);
  return n;
}

function options(): BenchOptions & { only: string | undefined } {
  const { values } = parseArgs({
    options: {
      iterations: { type: 'string' }, warmup: { type: 'string' }, tasks: { type: 'string' }, only: { type: 'string' },
      'soak-minutes': { type: 'string' }, soak: { type: 'boolean' },
    },
  });
  if (values.only !== undefined && !CASES.some((c) => c.name === values.only)) {
    throw new Error(`--only: no case ${values.only} (cases: ${CASES.map((c) => c.name).join(', ')})`);
  }
  return {
    iterations: positiveInt('iterations', values.iterations, 200),
    warmup: positiveInt('warmup', values.warmup, 100),
    tasks: positiveInt('tasks', values.tasks, 1_000_000),
    only: values.only,
    soakMinutes: values['soak-minutes'] !== undefined ? positiveInt('soak-minutes', values['soak-minutes'], 30) : values.soak ? 30 : undefined,
  };
}

const heading = (section: string): string => section.split('\n', 1)[0] ?? '';

/**
 * The sections to write: this run's, in place of the same-headed ones of the existing file,
 * and (after --only) the existing file's other sections, each marked with its run's date.
 */
async function mergeSections(fresh: string[], only: string | undefined): Promise<string[]> {
  if (only === undefined) return fresh;
  let old: string;
  try {
    old = await readFile(RESULTS, 'utf8');
  } catch {
    return fresh;
  }
  const date = /^- Date: (.*)$/m.exec(old)?.[1] ?? 'an earlier run';
  // Each kept section ends in exactly one newline, so re-runs do not grow blank lines.
  const oldSections = old.split(/^(?=## )/m).filter((s) => s.startsWith('## ')).map((s) => s.replace(/\n+$/, '\n'));
  const byHeading = new Map(fresh.map((s) => [heading(s), s]));
  const out = oldSections.map((s) => {
    const replaced = byHeading.get(heading(s));
    if (replaced !== undefined) {
      byHeading.delete(heading(s));
      return replaced;
    }
    if (/^_Kept from the run of /m.test(s)) return s;
    const [first, ...rest] = s.split('\n');
    return [first, '', `_Kept from the run of ${date} (a later run was \`--only ${only}\`)._`, ...rest].join('\n');
  });
  return [...out, ...byHeading.values()];
}

async function main(): Promise<number> {
  const opts = options();
  const started = performance.now();
  const server = await startRedisServer({ label: 'bench' });
  const admin = new Redis(server.url);
  const sections: string[] = [];
  const failures: string[] = [];
  try {
    const machine = await describeAndPin(admin);
    console.log(`redis ${machine.redisVersion} on ${server.url}; nproc ${machine.nproc}; ${machine.pinning}`);
    for (const c of CASES.filter((x) => opts.only === undefined || x.name === opts.only)) {
      console.log(`\n== ${c.name}`);
      const result = await c.run({ ...opts, url: server.url, port: server.port, admin });
      sections.push(result.markdown);
      failures.push(...result.failures.map((f) => `${c.name}: ${f}`));
    }
    const text = [fileHeader(machine, new Date(), opts.iterations, opts.warmup), ...(await mergeSections(sections, opts.only))].join('\n');
    await writeFile(RESULTS, text);
    console.log(`\n${sections.join('\n')}\nwrote ${RESULTS.pathname} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    admin.disconnect();
    await server.stop();
  }
  if (failures.length === 0) return 0;
  console.error(`\nFAILED: a benchmark target was missed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('bench failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
