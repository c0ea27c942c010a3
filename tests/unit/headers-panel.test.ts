import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HEADERS_VERSION_NOTE, HeadersPanel } from '@/components/task-detail/headers-panel';

const render = (headers: Record<string, string>) => renderToStaticMarkup(createElement(HeadersPanel, { headers }));

describe('the task page\'s headers panel', () => {
  it('says what asynq v0.25 and v0.24 servers do with headers, beside them', () => {
    const html = render({ tenant: 'acme' });
    expect(HEADERS_VERSION_NOTE).toMatch(/since asynq v0\.26/);
    expect(HEADERS_VERSION_NOTE).toMatch(/v0\.25 or v0\.24 server/);
    expect(HEADERS_VERSION_NOTE).toMatch(/retries, archives or completes/);
    expect(html).toContain('data-testid="headers-version-note"');
    expect(html).toContain(HEADERS_VERSION_NOTE);
    expect(html).toContain('tenant');
  });

  it('says it on a task without headers too: an older server may have dropped them', () => {
    const html = render({});
    expect(html).toContain('No headers.');
    expect(html).toContain(HEADERS_VERSION_NOTE);
  });
});
