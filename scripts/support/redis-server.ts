/**
 * Starts a private, throwaway redis-server for the tests, the demo and the benchmarks.
 *
 * Why our own process rather than whatever listens on 6379: the suites FLUSHDB freely, and a
 * developer's Redis (or the service the Debian package starts) must never be touched. There is no
 * Docker engine on the machines, so each instance is a plain child process on a free loopback
 * port with its own temp dir and no persistence, killed when this process goes away.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, rmSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

export type RunningRedis = {
  host: '127.0.0.1';
  port: number;
  url: string;
  dir: string;
  /** SHUTDOWN NOSAVE (SIGKILL after 5 s), then removes `dir` (unless the caller gave it). Safe to call more than once. */
  stop(): Promise<void>;
  /**
   * SIGKILL, as a crash or an OOM kill would: no shutdown, no final save, clients see the
   * connection reset. Resolves once the process is gone; keeps a `dir` the caller gave, so the
   * same data can be loaded by a new server (start again with the same `dir` and `port`).
   */
  kill(): Promise<void>;
};

export type StartRedisOptions = {
  /** A fixed port. By default a free one is picked, and re-picked if another process takes it first. */
  port?: number;
  /** Goes into the temp dir name and error messages, to tell parallel servers apart. */
  label?: string;
  /** Extra redis-server arguments, appended last so they override the defaults. */
  args?: string[];
  /**
   * Run in this existing directory (its RDB/AOF files are loaded) and leave it in place on
   * stop or kill: the caller owns it. By default a fresh temp dir, removed on stop.
   */
  dir?: string;
};

type Instance = { child: ChildProcess; dir: string; keepDir: boolean; exited: Promise<void> };

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
const PORT_ATTEMPTS = 5;
const live = new Set<Instance>();

class PortTakenError extends Error {}

/** Starts redis-server and resolves once our process (not a neighbour) answers PING. */
export async function startRedisServer(opts: StartRedisOptions = {}): Promise<RunningRedis> {
  const bin = findRedisServer();
  const label = (opts.label ?? 'server').replace(/[^\w.-]/g, '_');
  // A port from freePort() is only free until we close the probe socket; another process can win
  // the race, so an "Address already in use" start is retried on a fresh port.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await freePort());
    try {
      return await launch(bin, port, label, opts.args ?? [], opts.dir);
    } catch (err) {
      if (!(err instanceof PortTakenError) || opts.port !== undefined || attempt >= PORT_ATTEMPTS) {
        throw err;
      }
    }
  }
}

async function launch(bin: string, port: number, label: string, extra: string[], ownDir?: string): Promise<RunningRedis> {
  const dir = ownDir ?? (await mkdtemp(join(tmpdir(), `asynqlens-redis-${label}-`)));
  // A log of its own per start: in a reused dir, the last run's "Ready" line must not count.
  const log = join(dir, ownDir === undefined ? 'redis.log' : `redis-${Date.now()}.log`);
  // `--loglevel notice` comes last because waitUntilReady needs the notice-level "Ready" line.
  const args = ['--bind', HOST, '--port', String(port), '--dir', dir, '--logfile', log,
    '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--daemonize', 'no', ...extra,
    '--loglevel', 'notice'];
  const [cmd, argv] = withParentDeathSignal(bin, args);
  // Startup errors (bad arguments) go to stderr before the logfile is opened; keep a tail of it.
  // Its own process group: a terminal's Ctrl-C reaches our process, which then stops Redis in
  // order (after workers have handed their tasks back), instead of killing Redis first.
  const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => resolve()); // after 'exit' and after stderr has drained
    child.once('error', (err) => resolve(void (stderr += String(err)))); // spawn failure
  });
  const instance: Instance = { child, dir, keepDir: ownDir !== undefined, exited };
  live.add(instance);
  installExitHooks();
  try {
    await waitUntilReady(port, log, exited);
  } catch (err) {
    const logTail = (await readFile(log, 'utf8').catch(() => '')).slice(-2000);
    await stopInstance(instance, undefined); // also drains stderr
    const text = logTail + stderr;
    if (text.includes('Address already in use')) {
      throw new PortTakenError(`redis-server (${label}): ${HOST}:${port} is already in use`);
    }
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`redis-server (${label}) on ${HOST}:${port} failed: ${reason}\n${text}`);
  }
  let stopping: Promise<void> | undefined;
  return {
    host: HOST,
    port,
    url: `redis://${HOST}:${port}`,
    dir,
    stop: () => (stopping ??= stopInstance(instance, port)),
    kill: () => (stopping ??= stopInstance(instance, undefined)),
  };
}

/**
 * PING alone could be answered by another server that won the port race, so readiness also needs
 * our own log's "Ready to accept connections", which redis-server writes only after binding.
 */
async function waitUntilReady(port: number, log: string, exited: Promise<void>): Promise<void> {
  let dead = false;
  void exited.then(() => (dead = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (dead) throw new Error('exited during startup');
    const text = await readFile(log, 'utf8').catch(() => '');
    if (text.includes('Ready to accept connections')) {
      // -NOAUTH still proves the server is up when the caller passed --requirepass.
      const reply = await exchange(port, 'PING').catch(() => '');
      if (reply.startsWith('+PONG') || reply.startsWith('-NOAUTH')) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no PING reply within ${READY_TIMEOUT_MS / 1000} s`);
}

/**
 * `port` is passed only once the server proved to be ours: after a lost port race the port
 * belongs to a neighbour, and SHUTDOWN would stop *its* Redis. Without a port we just kill.
 */
async function stopInstance(instance: Instance, port: number | undefined): Promise<void> {
  const { child } = instance;
  if (port !== undefined && child.exitCode === null && child.signalCode === null) {
    // NOSAVE so a caller's `--save` args cannot make shutdown write into a dir we are deleting.
    await exchange(port, 'SHUTDOWN NOSAVE').catch(() => '');
  } else {
    child.kill('SIGKILL');
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await instance.exited;
  clearTimeout(timer);
  live.delete(instance);
  if (!instance.keepDir) await rm(instance.dir, { recursive: true, force: true });
}

/** Sends one inline command on a fresh socket; resolves with the first reply line ('' if closed). */
function exchange(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: HOST, port });
    let data = '';
    socket.setTimeout(1_000, () => socket.destroy(new Error(`${command}: timed out`)));
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('utf8');
      if (data.includes('\r\n')) socket.end();
    });
    socket.once('error', reject);
    socket.once('close', () => resolve(data.split('\r\n')[0] ?? ''));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

let hooksInstalled = false;

/**
 * Ctrl-C must never leave a redis-server behind. Listening for a signal turns off Node's default
 * "exit on signal", so after killing our servers we re-raise it, unless someone else (the demo,
 * a test runner) also listens and owns the exit.
 */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', killAllSync);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const onSignal = (): void => {
      killAllSync();
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

/** 'exit' listeners must be synchronous, hence SIGKILL and rmSync: the data is throwaway anyway. */
function killAllSync(): void {
  for (const { child, dir, keepDir } of live) {
    child.kill('SIGKILL');
    if (!keepDir) rmSync(dir, { recursive: true, force: true });
  }
  live.clear();
}

/**
 * No JS handler runs when this process is SIGKILLed (an OOM kill, a killed test worker). On Linux,
 * setpriv's parent-death signal makes the kernel kill redis-server then too. Only from the main
 * thread: the signal fires when the spawning *thread* exits, which for a worker is too early.
 */
function withParentDeathSignal(bin: string, args: string[]): [string, string[]] {
  const setpriv = process.platform === 'linux' && isMainThread ? findExecutable('setpriv', []) : undefined;
  if (setpriv === undefined || !supportsPdeathsig(setpriv)) return [bin, args];
  return [setpriv, ['--pdeathsig', 'KILL', '--', bin, ...args]];
}

let pdeathsigSupport: boolean | undefined;

/** busybox's setpriv applet and util-linux before 2.33 lack --pdeathsig. */
function supportsPdeathsig(setpriv: string): boolean {
  pdeathsigSupport ??= spawnSync(setpriv, ['--pdeathsig', 'KILL', '--', 'true']).status === 0;
  return pdeathsigSupport;
}

function findRedisServer(): string {
  const override = process.env.REDIS_SERVER_BIN;
  if (override) {
    if (isExecutable(override)) return override;
    throw new Error(`REDIS_SERVER_BIN=${override} is not an executable file`);
  }
  const found = findExecutable('redis-server', ['/usr/bin', '/usr/local/bin']);
  if (found !== undefined) return found;
  throw new Error(
    'redis-server not found on PATH, in /usr/bin or /usr/local/bin. Run scripts/ensure-redis.sh, ' +
      'install it (apt-get install redis-server, brew install redis) or set REDIS_SERVER_BIN.',
  );
}

function findExecutable(name: string, extraDirs: string[]): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...extraDirs].filter(Boolean);
  return dirs.map((dir) => join(dir, name)).find(isExecutable);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
