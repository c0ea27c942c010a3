/**
 * Wall-clock latency of one GET on several servers, over HTTP with bench/http-client.ts.
 */
import type { HttpClient } from './http-client';
import { percentile, type Latency } from './measure';

export interface HttpTiming extends Latency {
  status: number;
  /** Body bytes of the last reply. */
  bytes: number;
}

/**
 * `warmup` untimed rounds, then `iterations` timed ones of GET `path` on every client, the
 * clients taking turns request by request so the machine's noise falls on all alike. Every
 * reply must have status `status`, and every timed one must ride the client's open socket.
 */
export async function timeGets(clients: readonly HttpClient[], path: string, status: number, iterations: number, warmup: number): Promise<HttpTiming[]> {
  const samples = clients.map((): number[] => []);
  const bytes = clients.map(() => 0);
  for (let i = 0; i < warmup + iterations; i++) {
    for (const [c, client] of clients.entries()) {
      const t0 = performance.now();
      const reply = await client.get(path);
      const ms = performance.now() - t0;
      if (reply.status !== status) throw new Error(`${client.base}${path}: HTTP ${reply.status}, expected ${status}: ${reply.body.slice(0, 300)}`);
      if (i < warmup) continue;
      if (!reply.reusedSocket) throw new Error(`${client.base}${path}: a timed request opened a new connection`);
      samples[c]!.push(ms);
      bytes[c] = Buffer.byteLength(reply.body);
    }
  }
  return samples.map((s, c) => {
    s.sort((a, b) => a - b);
    return { p50Ms: percentile(s, 50), p95Ms: percentile(s, 95), status, bytes: bytes[c]! };
  });
}
