import { describe, expect, it } from 'vitest';
import { hasReadOnlyEval } from '@/lib/asynq/scripts/read-only-eval';
import { LUA_SCRIPTS } from '@/lib/asynq/scripts/registry.gen';
import { checkReadOnly, isReadOnly, renderRegistry } from '@/lib/asynq/scripts/render-registry';

const header = (extra: string) => `--[[\n  Reads.\n\n  KEYS[1] a key\n${extra}]]\n`;

describe('@readonly scripts', () => {
  it('are recognised by the @readonly line of the contract header, not by a mention elsewhere', () => {
    expect(isReadOnly(header('  @readonly  never writes\n') + "return redis.call('GET', KEYS[1])")).toBe(true);
    expect(isReadOnly(header('') + "-- @readonly\nreturn redis.call('GET', KEYS[1])")).toBe(false);
    expect(isReadOnly(header('  Read-only in spirit.\n'))).toBe(false);
  });

  it('may call only read commands: the generator names the file and the command otherwise', () => {
    expect(() => checkReadOnly('ok.lua', "redis.call('HMGET', k, 'a'); redis.call(\"ZSCORE\", k, m)")).not.toThrow();
    expect(() => checkReadOnly('bad.lua', "redis.call('GET', k)\nredis.call('DEL', k)")).toThrow('bad.lua: marked @readonly but calls DEL');
    expect(() => checkReadOnly('dyn.lua', 'redis.call(cmd, k)')).toThrow('dyn.lua: marked @readonly but calls a command named at run time');
    const source = { file: 'bad.lua', lua: header('  @readonly\n') + "redis.call('SET', KEYS[1], 1)" };
    expect(() => renderRegistry([source])).toThrow('bad.lua: marked @readonly but calls SET');
  });

  it('carry the flag into the registry: the inspector and worker reads, and no script that writes', () => {
    const marked = Object.entries(LUA_SCRIPTS).filter(([, s]) => s.readonly).map(([name]) => name).sort();
    expect(marked).toEqual(['getTask', 'listGroups', 'listTasks', 'queueStats', 'readTaskMsgs', 'searchRange', 'workerListLeaseExpired', 'workerReadAggregationSet']);
    expect(LUA_SCRIPTS.enqueue.readonly).toBe(false);
    expect(LUA_SCRIPTS.moveAll.readonly).toBe(false);
  });
});

describe('EVALSHA_RO support', () => {
  it('is Redis 7.0 and later (and Valkey, which reports a 7.2 redis_version)', () => {
    const info = (v: string) => `# Server\r\nredis_version:${v}\r\nredis_git_sha1:00000000\r\nredis_mode:standalone\r\n`;
    expect(hasReadOnlyEval(info('6.2.14'))).toBe(false);
    expect(hasReadOnlyEval(info('6.0.20'))).toBe(false);
    expect(hasReadOnlyEval(info('7.0.15'))).toBe(true);
    expect(hasReadOnlyEval(info('7.2.4'))).toBe(true);
    expect(hasReadOnlyEval(info('8.0.1'))).toBe(true);
    expect(hasReadOnlyEval('# Server\r\nredis_mode:standalone\r\n')).toBe(false);
  });
});
