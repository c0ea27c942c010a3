/**
 * The resident memory of the app server the bench started: the process listening on its port
 * (the launcher imports the standalone server in its own process), read from /proc.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The pid listening on 127.0.0.1:`port` (ss -ltnp). */
export function listeningPid(port: number): number {
  const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(out)?.[1];
  if (pid === undefined) throw new Error(`no process listens on port ${port}:\n${out}`);
  return Number(pid);
}

function statusKb(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(m[1]);
}

/** Resident set size now, MB (VmRSS). */
export const rssMb = (pid: number): number => statusKb(pid, 'VmRSS') / 1024;
/** The highest resident set size since the process started, MB (VmHWM). */
export const peakRssMb = (pid: number): number => statusKb(pid, 'VmHWM') / 1024;

/** Least-squares slope of `samples` (minutes since start, MB), in MB per hour. */
export function slopeMbPerHour(samples: readonly { minute: number; mb: number }[]): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((a, s) => a + s.minute, 0) / n;
  const my = samples.reduce((a, s) => a + s.mb, 0) / n;
  const sxy = samples.reduce((a, s) => a + (s.minute - mx) * (s.mb - my), 0);
  const sxx = samples.reduce((a, s) => a + (s.minute - mx) ** 2, 0);
  return sxx === 0 ? 0 : (sxy / sxx) * 60;
}
