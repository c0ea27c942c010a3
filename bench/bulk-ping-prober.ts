/**
 * A PING prober beside a bulk run: what another Redis client (a production worker) waits while
 * the bulk runs. Redis runs one client's call (a script whole) or its whole pipelined buffer
 * before it reads the next client's, so a PING's wait is the stall a bulk inflicts on others.
 *
 * The prober is a separate process (Python) on its own connection, so its timings include none of
 * the bulk's own Node work (a prober in the bulk's event loop would measure that instead).
 * It sends a PING, waits for +PONG, sleeps 1 ms, and so on. Where the system allows, it runs
 * on Redis's core (0, see machine.ts) at a real-time priority above Redis's (SCHED_FIFO 20 vs
 * 10): it then wakes the moment its timer or the PONG is due, whatever else the shared machine
 * runs (on core 1, beside Node, Go and other work, measured waits were mostly its own wake-up
 * delays), and takes Redis's CPU only for the few µs of a send or a receive. At a lower
 * priority than Redis on core 0 it could not even send a PING while a script runs, hiding the
 * very stall it is there to see. Without taskset or chrt it runs where this process does.
 */
import { execFileSync, spawn } from 'node:child_process';

/**
 * The prober, as a Python script: one thread, no JIT or collector threads, so at a real-time
 * priority on Redis's core it takes only the µs of each send and receive (a Node prober there
 * ran V8's helper threads at that priority too and stalled Redis itself by milliseconds).
 * Prints the waits in µs as JSON once its standard input closes.
 */
const PROBER = `
import json, select, socket, sys, time
s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
waits = []
while True:
    r, _, _ = select.select([sys.stdin], [], [], 0.001)
    if r:
        break
    t0 = time.perf_counter()
    s.sendall(b'PING\\r\\n')
    buf = b''
    while not buf.endswith(b'\\r\\n'):
        buf += s.recv(64)
    waits.append((time.perf_counter() - t0) * 1e6)
sys.stdout.write(json.dumps(waits))
`;

export interface PingStats {
  /** PINGs answered during the run. */
  count: number;
  /** Longest and nearest-rank p99 / p50 wait, µs (client wall clock, loopback). */
  maxUs: number;
  p99Us: number;
  p50Us: number;
  /** PINGs that waited 10 ms or more. */
  over10ms: number;
  /** Where the prober ran. */
  placement: string;
}

export interface PingProber {
  stop(): Promise<PingStats>;
}

/** Starts a prober against 127.0.0.1:`port`; resolves once it is running. */
export async function startPingProber(port: number): Promise<PingProber> {
  const child = spawn('python3', ['-c', PROBER, String(port)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let placement = 'where the bench runs';
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(child.pid)], { stdio: 'ignore' });
    execFileSync('chrt', ['-f', '-p', '20', String(child.pid)], { stdio: 'ignore' });
    placement = "on Redis's core at SCHED_FIFO 20";
  } catch {
    // Not allowed here: the waits then include the prober's own scheduling delays.
  }
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const closed = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`ping prober exited ${code}`))));
  });
  // Give it a moment to connect and send its first PINGs before the measured run starts.
  await new Promise((r) => setTimeout(r, 100));
  return {
    async stop() {
      child.stdin?.end('stop\n');
      await closed;
      const waits = (JSON.parse(out || '[]') as number[]).sort((a, b) => a - b);
      const rank = (p: number) => Math.round(waits[Math.max(Math.ceil((p / 100) * waits.length), 1) - 1] ?? 0);
      return { count: waits.length, maxUs: Math.round(waits.at(-1) ?? 0), p99Us: rank(99), p50Us: rank(50), over10ms: waits.filter((w) => w >= 10_000).length, placement };
    },
  };
}
