/**
 * The base path is fixed at build time (Next bakes it into every link and asset URL):
 * `ASYNQLENS_BASE_PATH=/asynq npm run build` serves the console under /asynq. The launcher
 * (bin/asynqlens.mjs) refuses to start a build under a different base path than it was given.
 */
const basePath = (process.env.ASYNQLENS_BASE_PATH ?? '').replace(/\/+$/, '');
if (basePath !== '' && !/^\/[A-Za-z0-9._~\-/]*$/.test(basePath)) {
  throw new Error(`ASYNQLENS_BASE_PATH: "${basePath}" must start with / and hold only URL path characters`);
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A second build (e.g. the test suite's build under a base path) can live beside the first.
  distDir: process.env.ASYNQLENS_DIST_DIR || '.next',
  // A self-contained server (.next/standalone) that runs with `node` alone, no node_modules install.
  output: 'standalone',
  basePath,
  // The browser's API calls are plain fetches, which Next does not prefix: lib/paths.ts does.
  env: { NEXT_PUBLIC_ASYNQLENS_BASE_PATH: basePath },
  // ioredis needs Node's TCP sockets; keep it out of the bundler so it runs as plain Node.
  serverExternalPackages: ['ioredis'],
  // No next/image here: without it (and sharp's 19 MB of native libraries) the standalone
  // folder is half the size.
  images: { unoptimized: true },
  outputFileTracingExcludes: { '*': ['node_modules/@img/**', 'node_modules/sharp/**'] },
  // `npm test` type-checks the whole project (tests included) with tsc before it builds; the
  // build doing it again would only add a minute on a small machine.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  experimental: {
    // With proxy.ts in front, Next reads every request body into memory up to this size before
    // the route runs, and silently cuts it there (the default, 10 MB, broke enqueueing a 12 MB
    // payload). The routes bound their own bodies (route()'s maxBody: 64 KiB by default); this
    // is the largest of them, MAX_PAYLOAD_BODY_BYTES (lib/server/dto/payload.ts), plus 1 MiB,
    // so a body over a route's limit always reaches it as over the limit, a 413.
    // tests/integration/api/body-limits.test.ts keeps the two in step.
    proxyClientMaxBodySize: 22_435_160 + 1024 * 1024,
    // The stylesheet (40 KB, 8.5 KB gzipped) goes into the page's HTML as a <style> in its head,
    // not a <link> the first paint waits for: a linked sheet costs a round trip to a server busy
    // gzipping the page's eight scripts, and the inline theme script after it stops the parser
    // until the sheet has arrived, so none of the page was even parsed before then. Client-side
    // navigations (RSC requests) still get the <link>, which the browser then caches. The cost:
    // the React payload at the end of the HTML carries the sheet twice more (for the root layout
    // and for the global error page), about 15 KB gzipped after the page's content.
    inlineCss: true,
  },
  reactStrictMode: true,
  // The build's static files do not pass through proxy.ts, which gives every page and API
  // response its headers (CSP with a per-request nonce, frame-ancestors, HSTS over https); these
  // are the ones that matter for a script or stylesheet: never sniffed into another type, never
  // loaded by another site.
  async headers() {
    return [
      {
        source: '/_next/static/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Cross-Origin-Resource-Policy', value: 'same-origin' },
          { key: 'Referrer-Policy', value: 'same-origin' },
        ],
      },
    ];
  },
  // Prometheus scrapes /metrics unless told otherwise.
  async rewrites() {
    return [{ source: '/metrics', destination: '/api/metrics' }];
  },
};

export default nextConfig;
