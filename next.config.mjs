/** @type {import('next').NextConfig} */
const nextConfig = {
  // ioredis needs Node's TCP sockets; keep it out of the bundler so it runs as plain Node.
  serverExternalPackages: ['ioredis'],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
