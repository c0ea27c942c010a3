/**
 * A tiny TCP proxy between the app and a redis-server, to make network faults happen exactly
 * where a test wants them: forward a command to Redis, let Redis run it, and drop the
 * connection before its reply reaches the client, the one failure in which the client cannot
 * know whether its change was applied.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** `redis://127.0.0.1:<proxy port>/<db>` */
  url(db?: number): string;
  /**
   * Arms the proxy: the next request chunk for which `match` is true is forwarded to Redis,
   * and the reply to it is swallowed and both sockets destroyed. A `-NOSCRIPT` reply is passed
   * through and the proxy stays armed (the client's following EVAL is the one that runs).
   * Resolves with the request bytes once the reply has been dropped.
   */
  dropReplyTo(match: (request: Buffer) => boolean): Promise<Buffer>;
  /** Client bytes wait this long before they are forwarded (0: none). */
  setDelay(ms: number): void;
  /** How many client connections the proxy has accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

interface Armed {
  match: (request: Buffer) => boolean;
  dropped: (request: Buffer) => void;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let armed: Armed | null = null;
  let delayMs = 0;
  let accepted = 0;
  const open = new Set<Socket>();

  const server = createServer((client) => {
    accepted++;
    const upstream = createConnection(target);
    open.add(client).add(upstream);
    let dropping: { armed: Armed; request: Buffer } | null = null;
    let order = Promise.resolve();
    const destroy = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('data', (chunk: Buffer) => {
      if (armed && armed.match(chunk)) {
        dropping = { armed, request: chunk };
        armed = null;
      }
      const wait = delayMs;
      order = order.then(async () => {
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (!upstream.destroyed) upstream.write(chunk);
      });
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!dropping) {
        client.write(chunk);
        return;
      }
      if (chunk.subarray(0, 9).toString('latin1') === '-NOSCRIPT') {
        armed = dropping.armed;
        dropping = null;
        client.write(chunk);
        return;
      }
      const { armed: done, request } = dropping;
      destroy();
      done.dropped(request);
    });
    client.on('error', destroy);
    upstream.on('error', destroy);
    client.on('close', destroy);
    upstream.on('close', destroy);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    url: (db = 0) => `redis://127.0.0.1:${port}/${db}`,
    dropReplyTo: (match) => new Promise((dropped) => (armed = { match, dropped })),
    setDelay: (ms) => (delayMs = ms),
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
