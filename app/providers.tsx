'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster, toast } from '@/components/ui/toaster';
import { makeQueryClient } from '@/lib/query/query-client';

/** One QueryClient per browser session (per request on the server), and the toasts mutations use. */
export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(() => makeQueryClient({ onMutationError: (message) => toast(message, 'error') }));
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
