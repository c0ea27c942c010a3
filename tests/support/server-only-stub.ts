// Stand-in for the `server-only` marker package in Vitest (see vitest.config.ts).
export {};
