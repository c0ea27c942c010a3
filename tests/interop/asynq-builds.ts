/**
 * The asynq releases the Go interop program is built against (tests/go/asynq-versions.txt) and
 * what each can do. Read by the harness and by vitest.config.ts (one interop project per older
 * release), so it imports nothing from Vitest.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const VERSIONS_FILE = fileURLToPath(new URL('../go/asynq-versions.txt', import.meta.url));

/** One line of tests/go/asynq-versions.txt: how the program is built against one asynq release. */
export interface AsynqBuild {
  version: string;
  /** go.mod, or the alternate go.*.mod that pins this release (`go build -modfile`). */
  modfile: string;
  /** The binary's name in tests/go (where scripts/ensure-go.sh builds it). */
  binary: string;
  /** `go build -tags`, empty for none. */
  tags: string;
}

/** Every release the program builds against, newest (the default) first. */
export function asynqBuilds(): AsynqBuild[] {
  return readFileSync(VERSIONS_FILE, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [version = '', modfile = '', binary = '', tags = '-'] = line.split(/\s+/);
      return { version, modfile, binary, tags: tags === '-' ? '' : tags };
    });
}

/** The build of `version` (the newest when undefined); throws for a release not in the file. */
export function selectBuild(version: string | undefined): AsynqBuild {
  const builds = asynqBuilds();
  const build = version ? builds.find((b) => b.version === version) : builds[0];
  if (!build) throw new Error(`asynq ${version} is not a release of tests/go/asynq-versions.txt`);
  return build;
}

/** What the asynq release a run judges by can do; the tests expect what that release does. */
export interface AsynqRelease {
  version: string;
  /**
   * Task headers (protobuf field 15) exist, since v0.26.0. Before, Go neither writes nor reads
   * them, and its server drops them whenever it rewrites a message (retry, archive, completion).
   */
  headers: boolean;
  /** Inspector.UpdateTaskPayload exists, since v0.26.0. */
  updateTaskPayload: boolean;
  /** RevokeTask exists, since v0.25.0 (v0.24 retries or archives such a task). */
  revoke: boolean;
  /**
   * The server's archive deletes the hashes of the tasks its trim drops, since v0.25.0. v0.24's
   * leaves them behind (in no set; no page lists them); ours deletes them, as later releases do.
   */
  trimDeletesHashes: boolean;
}

export function releaseOf(version: string): AsynqRelease {
  const minor = Number(/^v0\.(\d+)\./.exec(version)?.[1] ?? NaN);
  return { version, headers: minor >= 26, updateTaskPayload: minor >= 26, revoke: minor >= 25, trimDeletesHashes: minor >= 25 };
}
