/**
 * The overview and a queue page at a phone's width, a laptop's and a wide screen's, in both
 * themes: docs/screenshots/<page>-<width>-<theme>.png. At 1280 px and up every task ID is whole.
 */
import assert from 'node:assert/strict';
import type { Spec } from './support/harness';

export const phase = 'read';

const WIDTHS = [390, 1280, 1920] as const;
const THEMES = ['light', 'dark'] as const;

const specs: Spec[] = THEMES.map((theme) => ({
  name: `overview and queue page at ${WIDTHS.join(', ')} px (${theme})`,
  run: async ({ newPage, screenshot }) => {
    for (const width of WIDTHS) {
      const tp = await newPage({ colorScheme: theme, width, height: width === 390 ? 844 : 900 });
      const { page } = tp;
      await page.goto('/');
      await page.getByRole('table', { name: 'Queues' }).getByRole('link', { name: 'default', exact: true }).waitFor();
      await screenshot(page, `overview-${width}-${theme}`);
      await page.goto('/queues/webhooks?state=retry');
      const links = page.getByRole('table', { name: 'retry tasks' }).locator('tbody tr td:nth-child(2) a');
      await links.first().waitFor();
      await screenshot(page, `queue-${width}-${theme}`);
      if (width >= 1280) {
        const cut = await links.evaluateAll((as) => as.filter((a) => a.scrollWidth > a.clientWidth).length);
        assert.equal(cut, 0, `task IDs cut at ${width} px`);
      }
      assert.deepEqual(tp.errors, []);
      await tp.context.close();
    }
  },
}));

export default specs;
