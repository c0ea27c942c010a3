/**
 * What one measured run costs Redis: its longest calls from Redis's own SLOWLOG, and its
 * script calls and their time from INFO commandstats.
 *
 * Why not SLOWLOG at threshold 0: Redis 7 also logs every command a script runs (client
 * `?:0`), so a 500-task batch would push ~3,000 entries and the logging itself would lengthen
 * the very scripts being measured. At THRESHOLD_US only calls that matter are logged; nested
 * entries are told apart by their client address and never counted as calls. Our batch
 * scripts take longer than the threshold, so the longest one is logged exactly; when nothing
 * was logged, every call was shorter than the threshold.
 * SLOWLOG and commandstats time the execution inside Redis (a script whole), not the network.
 */
import type { Redis } from 'ioredis';

/** Connection name of the admin client; its calls (setup, SLOWLOG itself) are not counted. */
export const ADMIN_NAME = 'bench-admin';
export const THRESHOLD_US = 200;
const MAX_LEN = 50_000;
export const SLOW_MS = 5;
/** The address SLOWLOG gives commands run from inside a script. */
const NESTED = '?:0';

export interface CallStats {
  /** EVAL + EVALSHA calls, and their read-only forms (commandstats), and the time Redis spent in them. */
  scripts: number;
  /** Of which EVAL (a script sent whole: after NOSCRIPT, or re-sent by a retrying client). */
  evals: number;
  /** EVAL/EVALSHA that Redis refused to run (e.g. BUSY while another script ran too long). */
  rejected: number;
  scriptUs: number;
  /** Top-level calls of THRESHOLD_US or more. */
  logged: number;
  /** The longest top-level call (0 when none reached THRESHOLD_US) and its command and first key. */
  maxUs: number;
  maxCall: string;
  /** Top-level calls of SLOW_MS or more. */
  slow: number;
  /** Nearest-rank p50 / p99 of the logged top-level calls (0 when none). */
  p50Us: number;
  p99Us: number;
  /** The longest command run inside a script, e.g. asynq's ZREMRANGEBYRANK over the archive. */
  nestedMaxUs: number;
  nestedMaxCall: string;
  /** False when the log filled up, so some calls may be missing. */
  complete: boolean;
  /** The logged top-level calls by duration: `0.2-0.5 ms 120, 0.5-1 ms 300, ...` (empty buckets left out). */
  spread: string;
}

/** Bucket edges of `spread`, µs. */
const EDGES = [THRESHOLD_US, 500, 1000, 1500, 2000, 3000, 5000, 10_000];

function spreadOf(durations: readonly number[]): string {
  const ms = (us: number) => String(us / 1000);
  const parts: string[] = [];
  for (let i = 0; i < EDGES.length; i++) {
    const lo = EDGES[i]!;
    const hi = EDGES[i + 1];
    const count = durations.filter((d) => d >= lo && (hi === undefined || d < hi)).length;
    if (count > 0) parts.push(`${ms(lo)}${hi === undefined ? '+' : `-${ms(hi)}`} ms: ${count.toLocaleString('en-US')}`);
  }
  return parts.join(', ') || `every call < ${ms(THRESHOLD_US)} ms`;
}

interface Saved {
  slower: string;
  maxLen: string;
}

async function configGet(redis: Redis, name: string): Promise<string> {
  const [, value] = (await redis.config('GET', name)) as [string, string];
  return value;
}

/** Names the admin connection, starts logging, empties the log and the command stats. */
export async function startCallLog(admin: Redis): Promise<Saved> {
  await admin.client('SETNAME', ADMIN_NAME);
  const saved = { slower: await configGet(admin, 'slowlog-log-slower-than'), maxLen: await configGet(admin, 'slowlog-max-len') };
  await admin.config('SET', 'slowlog-log-slower-than', String(THRESHOLD_US));
  await admin.config('SET', 'slowlog-max-len', String(MAX_LEN));
  await admin.call('SLOWLOG', 'RESET');
  await admin.config('RESETSTAT');
  return saved;
}

type Entry = [number, number, number, (string | Buffer)[], string, string];

function describe(argv: (string | Buffer)[]): string {
  const cmd = String(argv[0] ?? '?').toUpperCase();
  // EVAL/EVALSHA script numkeys key1 ...: the first key says which structure it worked on.
  const key = cmd.startsWith('EVAL') ? argv[3] : argv[1];
  return key === undefined ? cmd : `${cmd} ${String(key)}`;
}

function scriptStats(info: string): { calls: number; evals: number; rejected: number; usec: number } {
  const out = { calls: 0, evals: 0, rejected: 0, usec: 0 };
  for (const m of info.matchAll(/^cmdstat_(eval|evalsha|eval_ro|evalsha_ro):calls=(\d+),usec=(\d+)(?:.*?rejected_calls=(\d+))?/gm)) {
    out.calls += Number(m[2]);
    out.usec += Number(m[3]);
    out.rejected += Number(m[4] ?? 0);
    if (m[1] === 'eval' || m[1] === 'eval_ro') out.evals += Number(m[2]);
  }
  return out;
}

/** Reads the log and the stats written since startCallLog, then restores the settings. */
export async function stopCallLog(admin: Redis, saved: Saved): Promise<CallStats> {
  const entries = (await admin.call('SLOWLOG', 'GET', String(MAX_LEN))) as Entry[];
  const scripts = scriptStats(await admin.info('commandstats'));
  await admin.config('SET', 'slowlog-log-slower-than', saved.slower);
  await admin.config('SET', 'slowlog-max-len', saved.maxLen);
  await admin.call('SLOWLOG', 'RESET');
  const stats: CallStats = {
    scripts: scripts.calls, evals: scripts.evals, rejected: scripts.rejected, scriptUs: scripts.usec, logged: 0, maxUs: 0, maxCall: '-', slow: 0, p50Us: 0, p99Us: 0,
    nestedMaxUs: 0, nestedMaxCall: '-', complete: entries.length < MAX_LEN, spread: '',
  };
  const durations: number[] = [];
  for (const [, , us, argv, addr, name] of entries) {
    if (name === ADMIN_NAME) continue;
    if (addr === NESTED) {
      if (us > stats.nestedMaxUs) {
        stats.nestedMaxUs = us;
        stats.nestedMaxCall = describe(argv);
      }
      continue;
    }
    stats.logged += 1;
    durations.push(us);
    if (us >= SLOW_MS * 1000) stats.slow += 1;
    if (us > stats.maxUs) {
      stats.maxUs = us;
      stats.maxCall = describe(argv);
    }
  }
  durations.sort((a, b) => a - b);
  const rank = (p: number) => durations[Math.max(Math.ceil((p / 100) * durations.length), 1) - 1] ?? 0;
  return { ...stats, p50Us: rank(50), p99Us: rank(99), spread: spreadOf(durations) };
}
