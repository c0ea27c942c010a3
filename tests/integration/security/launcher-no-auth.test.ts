/**
 * The launcher (bin/asynqlens.mjs, run as a process) refuses `--auth none` on a network address
 * unless --unsafe-no-auth-on-network (ASYNQLENS_UNSAFE_NO_AUTH_ON_NETWORK) says so. The refusal
 * comes before the build is looked for, so these cases need no build; tests/e2e/security.spec.ts
 * starts the server with the flag.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'asynqlens.mjs');

/** Runs the launcher with none of the suite's ASYNQLENS_ settings, only `env`. */
function launch(args: string[], env: Record<string, string> = {}) {
  const clean: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ASYNQLENS_')) clean[k] = v;
  // A build folder that does not exist: a start that gets past the checks stops at "no build found".
  Object.assign(clean, { ASYNQLENS_DIST_DIR: '.next-none-here' }, env);
  const r = spawnSync(process.execPath, [bin, ...args], { env: clean as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const REFUSED = /--auth none with --host (\S+): refusing to serve without authentication on a network address/;

describe('--auth none on a network address', () => {
  it('refuses to start (exit 2), naming the flag that would allow it and ASYNQLENS_ALLOWED_HOSTS', () => {
    for (const [args, env] of [
      [['--auth', 'none', '--host', '0.0.0.0'], {}],
      [['--auth', 'none', '--host', '::'], {}],
      [['--host', '192.168.1.20'], { ASYNQLENS_AUTH: 'none' }],
      [[], { ASYNQLENS_AUTH: 'none', ASYNQLENS_HOST: '10.0.0.5' }],
      // Only 1/true turn it on.
      [['--auth', 'none', '--host', '0.0.0.0'], { ASYNQLENS_UNSAFE_NO_AUTH_ON_NETWORK: '0' }],
    ] as [string[], Record<string, string>][]) {
      const r = launch(args, env);
      expect(r.code, `${args.join(' ')} ${JSON.stringify(env)}`).toBe(2);
      expect(r.out).toMatch(REFUSED);
      expect(r.out).toContain('--unsafe-no-auth-on-network [ASYNQLENS_UNSAFE_NO_AUTH_ON_NETWORK=1]');
      expect(r.out).toContain('--allowed-hosts [ASYNQLENS_ALLOWED_HOSTS]');
      expect(r.out).not.toContain('no build found');
    }
  });

  it('goes on, with a loud warning, when the flag or its variable is given', () => {
    for (const [args, env] of [
      [['--auth', 'none', '--host', '0.0.0.0', '--unsafe-no-auth-on-network'], {}],
      [['--auth', 'none', '--host', '0.0.0.0'], { ASYNQLENS_UNSAFE_NO_AUTH_ON_NETWORK: '1' }],
    ] as [string[], Record<string, string>][]) {
      const r = launch(args, env);
      expect(r.out).not.toMatch(REFUSED);
      expect(r.out).toContain('WARNING: UNSAFE: authentication is off and the console listens on 0.0.0.0');
      expect(r.out).toContain('no build found'); // it got as far as looking for the server
    }
  });

  it('loopback addresses and authenticated modes need no flag', () => {
    for (const [args, env] of [
      [['--auth', 'none'], {}],
      [['--auth', 'none', '--host', '127.0.0.1'], {}],
      [['--auth', 'none', '--host', '::1'], {}],
      [['--auth', 'none', '--host', 'localhost'], {}],
      [['--auth', 'login', '--host', '0.0.0.0'], {}],
      [['--host', '0.0.0.0'], { ASYNQLENS_AUTH: 'proxy' }],
    ] as [string[], Record<string, string>][]) {
      const r = launch(args, env);
      expect(r.out, args.join(' ')).not.toMatch(/refusing|WARNING/);
      expect(r.out).toContain('no build found');
    }
  });

  it('--help lists the new options with their variables', () => {
    const r = launch(['--help']);
    expect(r.code).toBe(0);
    for (const s of ['--unsafe-no-auth-on-network', 'ASYNQLENS_UNSAFE_NO_AUTH_ON_NETWORK', '--allowed-hosts', 'ASYNQLENS_ALLOWED_HOSTS', '--frame-ancestors', 'ASYNQLENS_FRAME_ANCESTORS']) {
      expect(r.out).toContain(s);
    }
  });
});
