/**
 * A PING prober beside a bulk run: what another Redis client (a production worker) waits while
 * the bulk runs. Redis runs one client's call (a script whole) or its whole pipelined buffer
 * before it reads the next client's, so a PING's wait is the stall a bulk inflicts on others.
 *
 * The prober is a separate Node process on its own connection, so its timings include none of
 * the bulk's own Node work (a prober in the bulk's event loop would measure that instead).
 * It sends a PING, waits for +PONG, sleeps 1 ms, and so on. It inherits this process' cores
 * (1, beside Node and Go; see machine.ts), never Redis's: on core 0 Redis's real-time priority
 * would keep it from even sending a PING while a long script runs, hiding the very stall it is
 * there to see. Its waits may include a wake-up delay on a busy core 1 (both sides alike).
 */
import { spawn } from 'node:child_process';

/** The prober, as a plain Node script (no TypeScript loader in the child, no dependencies). */
const PROBER = `
const net = require('node:net');
const port = Number(process.argv[1]);
const waits = [];
let stopping = false, sentAt = 0n, buf = '';
const sock = net.connect({ port, host: '127.0.0.1', noDelay: true });
const send = () => { if (stopping) return finish(); sentAt = process.hrtime.bigint(); sock.write('PING\\r\\n'); };
sock.on('connect', send);
sock.on('data', (d) => {
  buf += d.toString('latin1');
  while (buf.includes('\\r\\n')) {
    buf = buf.slice(buf.indexOf('\\r\\n') + 2);
    waits.push(Number(process.hrtime.bigint() - sentAt) / 1000);
    setTimeout(send, 1);
  }
});
function finish() {
  sock.end();
  process.stdout.write(JSON.stringify(waits));
  process.exit(0);
}
process.stdin.on('data', () => { stopping = true; });
process.stdin.on('end', () => { stopping = true; });
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
}

export interface PingProber {
  stop(): Promise<PingStats>;
}

/** Starts a prober against 127.0.0.1:`port`; resolves once it is running. */
export async function startPingProber(port: number): Promise<PingProber> {
  const child = spawn(process.execPath, ['-e', PROBER, String(port)], { stdio: ['pipe', 'pipe', 'inherit'] });
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
      return { count: waits.length, maxUs: Math.round(waits.at(-1) ?? 0), p99Us: rank(99), p50Us: rank(50), over10ms: waits.filter((w) => w >= 10_000).length };
    },
  };
}
