/**
 * Gives the route handlers the start a new process would get, with other Redis settings: the
 * module graph is reset (lib/server reads its settings once per graph), the Redis settings of
 * an earlier case are cleared, and the connection shared on globalThis is closed and dropped.
 * Authentication is off and the command timeout 2 s. Returns the routes of the new graph.
 */
import { vi } from 'vitest';
import { consoleRoutes, type ConsoleRoutes } from './console-routes';

export async function freshConsole(env: Record<string, string | undefined>): Promise<ConsoleRoutes> {
  vi.resetModules();
  for (const key of Object.keys(process.env)) if (key.startsWith('ASYNQLENS_REDIS_') || key === 'REDIS_URL') delete process.env[key];
  Object.assign(process.env, { ASYNQLENS_AUTH: 'none', ASYNQLENS_COMMAND_TIMEOUT_MS: '2000' });
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
  const g = globalThis as { asynqlensRedis?: { disconnect(): void }; asynqlensInspector?: unknown };
  g.asynqlensRedis?.disconnect();
  delete g.asynqlensRedis;
  delete g.asynqlensInspector;
  return consoleRoutes();
}
