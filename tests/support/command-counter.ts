/**
 * Counts what a piece of code sends to Redis, seen from Redis itself: MONITOR reports every
 * command a client sends (script-internal calls are tagged `lua` and left out), so the count
 * does not depend on how our client batches.
 */
import { Redis } from 'ioredis';

export interface Counted<T> {
  result: T;
  /** Top-level commands sent to database `db`, e.g. `['smembers', 'evalsha']`. */
  commands: string[];
  /** Every command a script ran inside them. */
  scriptCommands: string[];
}

export async function countCommands<T>(url: string, db: number, run: () => Promise<T>): Promise<Counted<T>> {
  // monitor() opens a connection of its own; the client it is called on is closed with it.
  const client = new Redis(url);
  const monitor = await client.monitor();
  const commands: string[] = [];
  const scriptCommands: string[] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string, database: string) => {
    if (Number(database) !== db) return;
    const name = String(args[0]).toLowerCase();
    if (source === 'lua') scriptCommands.push(name);
    else commands.push(name);
  });
  // A PING through the monitor's own socket cannot be used; give the MONITOR time to attach.
  await new Promise((r) => setTimeout(r, 50));
  const result = await run();
  await new Promise((r) => setTimeout(r, 100));
  monitor.removeAllListeners('monitor');
  monitor.disconnect();
  client.disconnect();
  // Copies: the arrays must not see commands that arrive while the socket closes.
  return { result, commands: [...commands], scriptCommands: [...scriptCommands] };
}
