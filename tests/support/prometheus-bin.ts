/**
 * Where the Prometheus binaries are: PROMETHEUS_BIN_DIR (what scripts/ensure-prometheus.sh
 * prints and scripts/test.sh exports), else the Debian package's /usr/bin, else PATH. A missing
 * binary fails the test that needs it, naming the script that installs it: the alert rules and
 * the exposition are judged by Prometheus' own tools, never skipped.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function prometheusBin(name: 'prometheus' | 'promtool'): string {
  const dirs = process.env.PROMETHEUS_BIN_DIR ? [process.env.PROMETHEUS_BIN_DIR] : ['/usr/bin', ...(process.env.PATH ?? '').split(delimiter)];
  for (const dir of dirs) {
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  throw new Error(`${name} not found (looked in ${dirs.join(', ')}): run scripts/ensure-prometheus.sh, or set PROMETHEUS_BIN_DIR`);
}
