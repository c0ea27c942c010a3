/**
 * Wall-clock latency of one GET on several servers, over HTTP with bench/http-client.ts.
 */
import type { HttpClient } from './http-client';
import { percentile, type Latency } from './measure';
import { cpuNs } from './process-cpu';

export interface HttpTiming extends Latency {
  status: number;
  /** Body bytes of the last reply. */
  bytes: number;
  /**
   * The server process's CPU time over the timed requests, per request (its background work in
   * that window included); undefined when its pid is unknown.
   */
  cpuMs?: number;
}

/** A server to time: the client that reaches it and the pid of its process, when known. */
export interface Target {
  client: HttpClient;
  pid: number | undefined;
}

/**
 * `warmup` untimed rounds, then `iterations` timed ones of GET `path` on every target, the
 * targets taking turns request by request so the machine's noise falls on all alike. Every
 * reply must have status `status`, and every timed one must ride the client's open socket.
 */
export async function timeGets(targets: readonly Target[], path: string, status: number, iterations: number, warmup: number): Promise<HttpTiming[]> {
  const samples = targets.map((): number[] => []);
  const bytes = targets.map(() => 0);
  let cpu0: (number | undefined)[] = [];
  for (let i = 0; i < warmup + iterations; i++) {
    if (i === warmup) cpu0 = targets.map((t) => (t.pid === undefined ? undefined : cpuNs(t.pid)));
    for (const [n, { client }] of targets.entries()) {
      const t0 = performance.now();
      const reply = await client.get(path);
      const ms = performance.now() - t0;
      if (reply.status !== status) throw new Error(`${client.base}${path}: HTTP ${reply.status}, expected ${status}: ${reply.body.slice(0, 300)}`);
      if (i < warmup) continue;
      if (!reply.reusedSocket) throw new Error(`${client.base}${path}: a timed request opened a new connection`);
      samples[n]!.push(ms);
      bytes[n] = Buffer.byteLength(reply.body);
    }
  }
  return samples.map((s, n) => {
    s.sort((a, b) => a - b);
    const before = cpu0[n];
    const pid = targets[n]!.pid;
    const after = pid === undefined ? undefined : cpuNs(pid);
    const cpuMs = before === undefined || after === undefined ? undefined : Math.round((after - before) / iterations / 1e3) / 1e3;
    return { p50Ms: percentile(s, 50), p95Ms: percentile(s, 95), status, bytes: bytes[n]!, cpuMs };
  });
}
