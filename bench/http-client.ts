/**
 * The one HTTP client both servers of the read benchmark are timed with: Node's http module on
 * a keep-alive agent limited to one socket, one request at a time, the whole body read before
 * the clock stops. One client per server, so neither pays for the other's connection.
 */
import http from 'node:http';

export interface HttpReply {
  status: number;
  body: string;
  /** False only for the request that opened the socket. */
  reusedSocket: boolean;
}

export interface HttpClient {
  base: string;
  get(path: string): Promise<HttpReply>;
  close(): void;
}

export function keepAliveClient(base: string): HttpClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    base,
    get: (path) =>
      new Promise((resolve, reject) => {
        const req = http.get(`${base}${path}`, { agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.once('error', reject);
          res.once('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), reusedSocket: req.reusedSocket }));
        });
        req.once('error', reject);
      }),
    close: () => agent.destroy(),
  };
}
