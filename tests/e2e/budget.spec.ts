/**
 * The overview's JavaScript budget (issue 5: at most 150 KB gzipped), measured the way a browser
 * pays it: every script a cold visit loads until the network is idle.
 */
import assert from 'node:assert/strict';
import type { Spec } from './support/harness';
import { measurePage } from './support/measure-page';

export const phase = 'read';

const BUDGET_BYTES = 150 * 1024;

const specs: Spec[] = [
  {
    name: 'the overview loads at most 150 KB of gzipped JavaScript',
    run: async ({ browser, baseUrl }) => {
      const context = await browser.newContext();
      await measurePage(context, `${baseUrl}/`, 'table[aria-label="Queues"]'); // warm the server
      const cost = await measurePage(await browser.newContext(), `${baseUrl}/`, 'table[aria-label="Queues"]');
      const kb = (cost.jsGzipBytes / 1024).toFixed(1);
      console.log(`      overview: ${kb} KB gzipped JS in ${cost.scripts.length} scripts; first contentful paint ${cost.firstContentfulPaintMs} ms`);
      assert.ok(cost.jsGzipBytes <= BUDGET_BYTES, `overview loads ${kb} KB of gzipped JavaScript (budget 150 KB):\n${cost.scripts.map((s) => `  ${(s.gzipBytes / 1024).toFixed(1)} KB ${s.url}`).join('\n')}`);
    },
  },
];

export default specs;
