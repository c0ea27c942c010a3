/**
 * Where to go after signing in: a path on this site only. Anything else (`//evil.example`,
 * `/\evil`, `https://…`, control characters) becomes `/`, so the login link cannot be used to
 * bounce a freshly signed-in user to another site.
 */
export function safeNextPath(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return '/';
  if (raw === '/login' || raw.startsWith('/login?') || raw.startsWith('/login/')) return '/';
  return raw;
}
