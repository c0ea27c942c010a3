/**
 * The API route list that labels requests by pattern (lib/server/http/api-routes.ts): it is the
 * app/api tree exactly, and a path maps to the route Next would serve it with — static segments
 * before dynamic ones, whatever a queue is called.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, apiRoutePattern } from '@/lib/server/http/api-routes';

const app = join(import.meta.dirname, '..', '..', '..', 'app');

function routeFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFolders(join(dir, e.name)) : e.name === 'route.ts' ? [`/${relative(app, dir).split(sep).join('/')}`] : [],
  );
}

describe('API_ROUTES', () => {
  it('lists every app/api route folder, and nothing else', () => {
    expect([...API_ROUTES].sort()).toEqual(routeFolders(join(app, 'api')).sort());
  });

  it.each([
    ['/api/queues', '/api/queues'],
    ['/api/queues/emails', '/api/queues/[qname]'],
    ['/api/queues/emails/tasks/abc', '/api/queues/[qname]/tasks/[taskId]'],
    ['/api/queues/emails/tasks/abc/payload', '/api/queues/[qname]/tasks/[taskId]/payload'],
    ['/api/queues/emails/tasks/abc/run', '/api/queues/[qname]/tasks/[taskId]/[action]'],
    // Queue names that spell a static segment or another route's words.
    ['/api/queues/queues/bulk', '/api/queues/[qname]/bulk'],
    ['/api/queues/bulk/bulk', '/api/queues/[qname]/bulk'],
    ['/api/queues/tasks/tasks/tasks', '/api/queues/[qname]/tasks/[taskId]'],
    ['/api/queues/api/tasks/payload/payload', '/api/queues/[qname]/tasks/[taskId]/payload'],
    ['/api/queues/%22%0A%5C/history', '/api/queues/[qname]/history'],
    ['/api/schedulers/e-1/events', '/api/schedulers/[entryId]/events'],
    ['/metrics', '/api/metrics'],
    ['/api/health/live', '/api/health/live'],
  ])('%s → %s', (path, pattern) => {
    expect(apiRoutePattern(path)).toBe(pattern);
  });

  it.each(['/api/nope', '/api/queues/', '/api/queues//tasks', '/', '/api/queues/a/b/c/d/e/f'])('%s → null', (path) => {
    expect(apiRoutePattern(path)).toBeNull();
  });
});
