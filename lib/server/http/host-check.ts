import 'server-only';
import type { AuthMode } from '../auth/config';

/**
 * Which Host names the console answers to. DNS rebinding points a name the attacker owns at
 * 127.0.0.1 (or the console's address): the operator's browser then treats the console as the
 * attacker's own origin and sends it anything, with `Host: attacker.example`. Answering only to
 * known names defeats it, whatever the bind address. Loopback names cannot be rebound (browsers
 * resolve *.localhost to loopback themselves), so they are always served.
 */
export interface HostRule {
  /** Exact names, lower case, IPv6 in brackets. */
  exact: ReadonlySet<string>;
  /** `*.example.com` as `.example.com`: any name ending so (not example.com itself). */
  suffixes: readonly string[];
  /** `*` was listed: the check is off (a proxy in front already pins the Host). */
  any: boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const NAME = /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(\.[a-z0-9_-]+)*)$/;
const VAR = 'ASYNQLENS_ALLOWED_HOSTS';

/** Parses `a.example.com,*.corp.example.com,10.0.0.5`; throws naming the variable and the entry. */
export function parseAllowedHosts(raw: string): HostRule {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  let any = false;
  for (const entry of raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)) {
    if (entry === '*') {
      any = true;
      continue;
    }
    const wild = entry.startsWith('*.');
    const name = wild ? entry.slice(2) : entry;
    if (!NAME.test(name) || (wild && name.startsWith('['))) {
      throw new Error(`${VAR}: "${entry}" is not a host name (names only, no scheme or port; *.example.com for every name under example.com)`);
    }
    if (wild) suffixes.push(`.${name}`);
    else exact.add(name);
  }
  return { exact, suffixes, any };
}

let cached: { raw: string; rule: HostRule } | undefined;

/** The configured rule, re-parsed when the variable changes (tests change it between cases). */
export function allowedHosts(): HostRule {
  const raw = process.env[VAR] ?? '';
  if (cached?.raw !== raw) cached = { raw, rule: parseAllowedHosts(raw) };
  return cached.rule;
}

/** `Host` without its port, lower case: `[::1]:8080` → `[::1]`, `Example.com.` → `example.com`. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

function matches(name: string, rule: HostRule): boolean {
  if (LOOPBACK.has(name) || name.endsWith('.localhost') || rule.any || rule.exact.has(name)) return true;
  return rule.suffixes.some((s) => name.endsWith(s));
}

/**
 * Why a request's Host (and X-Forwarded-Host, which a same-origin script may set too) is not
 * served, or null when it is. Without authentication the rule always applies; with login or a
 * proxy it applies once ASYNQLENS_ALLOWED_HOSTS is set.
 */
export function hostRefusal(headers: Headers, urlHost: string, mode: AuthMode): string | null {
  const rule = allowedHosts();
  const configured = rule.any || rule.exact.size > 0 || rule.suffixes.length > 0;
  if (mode !== 'none' && !configured) return null;
  const sent = [headers.get('host') ?? urlHost, ...(headers.get('x-forwarded-host')?.split(',') ?? [])];
  for (const host of sent) {
    const name = hostName(host);
    if (matches(name, rule)) continue;
    const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
    const why = mode === 'none' ? 'authentication is off, so only loopback names and' : 'only';
    return `host "${shown}" is not served: ${why} the names in ${VAR} are (comma-separated, *.example.com allowed); add it there to reach the console by this name`;
  }
  return null;
}
