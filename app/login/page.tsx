import type { Metadata } from 'next';
import { LoginForm } from '@/components/auth/login-form';
import { safeNextPath } from '@/components/auth/safe-next';
import { loginPageState } from '@/lib/server/auth/login-page';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

/** The sign-in page, outside the dashboard shell: a card with the form, or why there is none. */
export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).next;
  const next = safeNextPath(typeof raw === 'string' ? raw : null);
  const state = loginPageState();
  return (
    <main className="grid min-h-dvh place-items-center bg-bg-subtle px-4">
      <div className="w-full max-w-sm rounded-lg border border-line bg-panel p-6 shadow-sm">
        <div className="mb-5 flex items-center gap-2">
          <span aria-hidden className="grid size-6 place-items-center rounded bg-accent text-xs font-bold text-accent-fg">
            a
          </span>
          <h1 className="text-base font-semibold tracking-tight">Sign in to asynqlens</h1>
        </div>
        {state.kind === 'form' && <LoginForm next={next} basePath={state.basePath} />}
        {state.kind === 'problem' && (
          <p role="alert" className="rounded-md border border-danger/30 bg-danger-soft p-3 text-[13px] leading-relaxed text-danger">
            {state.message}
          </p>
        )}
        {state.kind === 'elsewhere' && (
          <p className="text-[13px] leading-relaxed text-muted">
            {state.mode === 'proxy' ? 'Sign-in is handled by the proxy in front of this dashboard.' : 'Authentication is off on this server.'}{' '}
            <a className="text-accent underline" href={`${state.basePath}${next}`}>
              Continue
            </a>
          </p>
        )}
      </div>
    </main>
  );
}
