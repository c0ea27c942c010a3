import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { ThemeSync } from '@/components/layout/theme-sync';
import { SETTINGS_KEY } from '@/lib/query/settings-values';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'asynqlens', template: '%s · asynqlens' },
  description: 'A web console for Asynq task queues on Redis',
  icons: {
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='4' fill='%235e5ce6'/%3E%3Cpath d='M4 5h8M4 8h8M4 11h5' stroke='white' stroke-width='1.6' stroke-linecap='round'/%3E%3C/svg%3E",
  },
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
};

/**
 * Sets data-theme on <html> before first paint, from the saved setting or, for "system", the
 * OS preference: no flash of the wrong theme. The script is a constant (it carries no data from
 * Redis or the URL), which is the only reason an inline script is acceptable here. It carries
 * the response's CSP nonce (set by proxy.ts), without which the policy would block it.
 */
const THEME_SCRIPT = `(function(){try{var s=JSON.parse(localStorage.getItem(${JSON.stringify(SETTINGS_KEY)})||'{}');var t=s.theme;if(t!=='light'&&t!=='dark')t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';document.documentElement.setAttribute('data-theme',t)}catch(e){}})()`;

export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" data-theme="light" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <ThemeSync />
        {children}
      </body>
    </html>
  );
}
