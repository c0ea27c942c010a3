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
