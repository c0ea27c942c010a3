/**
 * The interop matrix as tests/go pins it: each asynq release with the go-redis version that
 * release's own go.mod requires (a newer go-redis would test a pairing no user of that release
 * runs), each with its build and its abilities.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asynqBuilds, releaseOf, selectBuild } from '../interop/asynq-builds';

/** From each release's go.mod on the Go module proxy (github.com/hibiken/asynq/@v/<v>.mod). */
const GO_REDIS_OF_RELEASE: Record<string, string> = { 'v0.26.0': 'v9.14.1', 'v0.25.1': 'v9.7.0', 'v0.24.1': 'v9.0.3' };

const required = (modfile: string, module: string): string | undefined =>
  new RegExp(`^\\s*(?:require\\s+)?${module.replace(/[./]/g, '\\$&')} (v\\S+)`, 'm').exec(
    readFileSync(new URL(`../go/${modfile}`, import.meta.url), 'utf8'),
  )?.[1];

describe('the asynq releases of the interop suite', () => {
  it('are v0.26.0 (the default), v0.25.1 and v0.24.1, each with its own binary', () => {
    const builds = asynqBuilds();
    expect(builds.map((b) => b.version)).toEqual(['v0.26.0', 'v0.25.1', 'v0.24.1']);
    expect(builds[0]).toMatchObject({ modfile: 'go.mod', binary: 'interop-bin', tags: '' });
    expect(new Set(builds.map((b) => b.binary)).size).toBe(3);
    expect(selectBuild(undefined).version).toBe('v0.26.0');
    expect(() => selectBuild('v0.23.0')).toThrow(/not a release/);
  });

  it.each(asynqBuilds().map((b) => [b.version, b] as const))('%s: its modfile pins it and the go-redis it requires', (version, b) => {
    expect(required(b.modfile, 'github.com/hibiken/asynq')).toBe(version);
    expect(required(b.modfile, 'github.com/redis/go-redis/v9')).toBe(GO_REDIS_OF_RELEASE[version]);
  });

  it('know what each release can do', () => {
    expect(releaseOf('v0.26.0')).toEqual({ version: 'v0.26.0', headers: true, updateTaskPayload: true, revoke: true, trimDeletesHashes: true });
    expect(releaseOf('v0.25.1')).toEqual({ version: 'v0.25.1', headers: false, updateTaskPayload: false, revoke: true, trimDeletesHashes: true });
    expect(releaseOf('v0.24.1')).toEqual({ version: 'v0.24.1', headers: false, updateTaskPayload: false, revoke: false, trimDeletesHashes: false });
  });

  it('build older releases with the tags that leave out the API they lack', () => {
    const tags = Object.fromEntries(asynqBuilds().map((b) => [b.version, b.tags.split(',').filter(Boolean).sort()]));
    expect(tags).toEqual({ 'v0.26.0': [], 'v0.25.1': ['asynq_pre026'], 'v0.24.1': ['asynq_pre025', 'asynq_pre026'] });
  });
});
