/**
 * The alerting rules shipped in deploy/prometheus, judged by Prometheus' own promtool: the file
 * loads (`check rules`), its unit tests pass (`test rules`), those tests show every alert both
 * firing and not firing, and they fail when a rule's threshold changes (so they test something).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prometheusBin } from '../../support/prometheus-bin';

const dir = join(import.meta.dirname, '..', '..', '..', 'deploy', 'prometheus');
const RULES = 'asynq-alerts.yml';
const TESTS = 'asynq-alerts.test.yml';
const scratch = mkdtempSync(join(tmpdir(), 'asynqlens-rules-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function promtool(cwd: string, ...args: string[]) {
  const r = spawnSync(prometheusBin('promtool'), args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Alert names in a rule file, in order. */
const alertNames = (text: string) => [...text.matchAll(/^\s*- alert: (\S+)$/gm)].map((m) => m[1]!);

describe('deploy/prometheus/asynq-alerts.yml', () => {
  it('loads in Prometheus', () => {
    const r = promtool(dir, 'check', 'rules', RULES);
    expect(r.out).toContain('SUCCESS');
    expect(r.code).toBe(0);
  });

  it('passes its unit tests', () => {
    const r = promtool(dir, 'test', 'rules', TESTS);
    expect(r.out).toContain('SUCCESS');
    expect(r.code).toBe(0);
  }, 60_000);

  it('has a firing and a quiet evaluation of every alert', () => {
    const names = alertNames(readFileSync(join(dir, RULES), 'utf8'));
    expect(names.length).toBeGreaterThanOrEqual(8);
    // Each evaluation in the tests: its alert name, and whether it expects no alert.
    const evals = readFileSync(join(dir, TESTS), 'utf8')
      .split(/^\s*- eval_time:/m)
      .slice(1)
      .map((block) => ({ alert: /alertname: (\S+)/.exec(block)?.[1], quiet: /exp_alerts: \[\]/.test(block) }));
    for (const name of names) {
      expect.soft(evals.some((e) => e.alert === name && e.quiet), `${name} never shown quiet`).toBe(true);
      expect.soft(evals.some((e) => e.alert === name && !e.quiet), `${name} never shown firing`).toBe(true);
    }
  });

  it.each([
    ['a latency threshold', 'asynq_queue_latency_seconds > 300', 'asynq_queue_latency_seconds > 3000'],
    ['the pause exclusion', 'unless asynq_queue_paused_total == 1', 'unless asynq_queue_paused_total == 2'],
    ['the archive limit', '{state="archived"} >= 9000', '{state="archived"} >= 9600'],
  ])('fails its unit tests when %s changes', (_what, from, to) => {
    const rules = readFileSync(join(dir, RULES), 'utf8');
    expect(rules).toContain(from);
    writeFileSync(join(scratch, RULES), rules.replace(from, to));
    copyFileSync(join(dir, TESTS), join(scratch, TESTS));
    const r = promtool(scratch, 'test', 'rules', TESTS);
    expect(r.out).toContain('FAILED');
    expect(r.code).not.toBe(0);
  }, 60_000);
});
