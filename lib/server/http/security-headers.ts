import 'server-only';
import { randomBytes } from 'node:crypto';

const VAR = 'ASYNQLENS_FRAME_ANCESTORS';
const KEYWORDS = new Set(["'none'", "'self'"]);
// A scheme (`https:`) or a host source (`https://grafana.example.com`, `*.example.com:443`):
// nothing that could close the directive (`;`) or add a source list of its own (`,`).
const SOURCE = /^([a-z][a-z0-9+.-]*:|([a-z][a-z0-9+.-]*:\/\/)?(\*\.)?[a-z0-9.-]+(:(\d+|\*))?(\/[^\s;,'"]*)?)$/i;

/** `'none'` (the default), `'self'`, or origins that may frame the console, space-separated. */
export function parseFrameAncestors(raw: string): string {
  const sources = raw.trim().split(/\s+/).filter(Boolean);
  if (sources.length === 0) return "'none'";
  for (const s of sources) {
    if (!KEYWORDS.has(s.toLowerCase()) && !SOURCE.test(s)) {
      throw new Error(`${VAR}: "${s}" is not a CSP frame-ancestors source ('none', 'self', https://grafana.example.com, *.example.com)`);
    }
  }
  if (sources.length > 1 && sources.some((s) => s.toLowerCase() === "'none'")) throw new Error(`${VAR}: 'none' cannot be combined with other sources`);
  return sources.join(' ');
}

let cached: { raw: string; value: string } | undefined;

/** The configured frame-ancestors, re-parsed when the variable changes. */
export function frameAncestors(): string {
  const raw = process.env[VAR] ?? '';
  if (cached?.raw !== raw) cached = { raw, value: parseFrameAncestors(raw) };
  return cached.value;
}

/** A fresh nonce per page: 128 random bits, which a page cannot guess or reuse. */
export const newNonce = (): string => randomBytes(16).toString('base64');

/**
 * The Content-Security-Policy of a page. Scripts run only with that response's nonce (Next puts
 * it on its own scripts, the root layout on the theme script) or when loaded by such a script
 * ('strict-dynamic': Next's chunks). Styles allow 'unsafe-inline': React renders `style`
 * attributes (chart sizes, progress bars, recharts' SVG) into the HTML, which a nonce cannot
 * cover; without script, injected CSS can restyle but not act or read. `next dev` evaluates code
 * for its error overlay, so 'unsafe-eval' is there in development only.
 */
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    // data: for the favicon, an inline SVG.
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors()}`,
  ].join('; ');
}

/**
 * The policy of an answer that is not a page (API JSON, a stream, a refusal, a redirect): it
 * loads nothing and runs nothing, so it allows nothing. Short, too: every poll of every open
 * tab carries it (about 80 bytes, where the page policy is about 240).
 */
export function scriptlessPolicy(): string {
  return `default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ${frameAncestors()}`;
}

/** HSTS, only over https: a browser ignores it over plain http, and a console reached by IP on a private network must stay reachable that way. */
export const HSTS: readonly [string, string] = ['strict-transport-security', 'max-age=31536000'];

/**
 * The headers every response from proxy.ts carries (next.config.mjs gives the build's static
 * files the ones that matter for them), built once per configuration: a request only adds its
 * page's CSP nonce and, over https, HSTS.
 */
export interface SecurityPolicy {
  /** Every header but the CSP and HSTS, as name/value pairs. */
  readonly fixed: readonly (readonly [string, string])[];
  /** The CSP of an answer that runs no script (API, refusal, redirect). */
  readonly scriptless: string;
  /** The CSP of a page rendered with `nonce`. */
  page(nonce: string): string;
}

let policy: { key: string; value: SecurityPolicy } | undefined;

/** The policy of the configuration as it is (ASYNQLENS_FRAME_ANCESTORS, dev), rebuilt only when that changes. */
export function securityPolicy(dev: boolean): SecurityPolicy {
  const ancestors = frameAncestors();
  const key = `${dev}\n${ancestors}`;
  if (policy?.key === key) return policy.value;
  const fixed: [string, string][] = [
    ['x-content-type-options', 'nosniff'],
    // Queue names and task IDs are in our URLs: they never leave with a link to another site.
    ['referrer-policy', 'same-origin'],
    ['cross-origin-opener-policy', 'same-origin'],
    ['cross-origin-resource-policy', 'same-origin'],
  ];
  // For browsers without frame-ancestors; a list of origins has no X-Frame-Options equivalent.
  const lower = ancestors.toLowerCase();
  if (lower === "'none'") fixed.push(['x-frame-options', 'DENY']);
  else if (lower === "'self'") fixed.push(['x-frame-options', 'SAMEORIGIN']);
  // The page policy split around its nonce, so a page costs one concatenation.
  const [before, after] = contentSecurityPolicy('\0', dev).split("'nonce-\0'") as [string, string];
  const value: SecurityPolicy = { fixed, scriptless: scriptlessPolicy(), page: (nonce) => `${before}'nonce-${nonce}'${after}` };
  policy = { key, value };
  return value;
}
