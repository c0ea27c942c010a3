'use client';

/**
 * Last-resort boundary: a render error anywhere shows this instead of a blank page. Kept free of
 * shared components on purpose: it is bundled into every page, apart from them.
 */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main role="alert" className="mx-auto flex max-w-xl flex-col items-center gap-2 px-4 py-16 text-center">
      <p className="text-[13px] font-medium">Something went wrong on this page</p>
      <p className="text-xs break-words text-muted">{error.message}</p>
      <button type="button" onClick={reset} className="h-7 rounded-md border border-line-strong px-2 text-xs hover:bg-hover">
        Try again
      </button>
    </main>
  );
}
