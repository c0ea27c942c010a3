/**
 * The suites call the console's routes through consoleRoutes() (tests/support/console-routes.ts):
 * it must hold every route module of app/api, so a new route is reached the same way.
 */
import { expect, it } from 'vitest';
import { consoleRoutes } from '../../support/console-routes';
import { apiRoutes } from '../auth/support';

it('lists every app/api route module, each once', async () => {
  const listed = Object.values(await consoleRoutes());
  const files = await apiRoutes();
  expect(files.filter((f) => !listed.includes(f.module as never)).map((f) => f.pattern)).toEqual([]);
  expect(new Set(listed).size).toBe(files.length);
});
