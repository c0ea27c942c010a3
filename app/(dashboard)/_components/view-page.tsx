import { Suspense, type ComponentType } from 'react';

/**
 * A page that is one client view reading its state from the URL. The Suspense boundary is what
 * lets Next prerender the page's frame at build time: `useSearchParams` suspends there until
 * the browser has the URL.
 */
export function viewPage(View: ComponentType) {
  return function ViewPage() {
    return (
      <Suspense>
        <View />
      </Suspense>
    );
  };
}
