import { describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';

describe('key schema', () => {
  it('keeps asynq’s names and the {queue} hash tag', () => {
    expect(k.taskKey('a:b', 'id1')).toBe('asynq:{a:b}:t:id1');
    expect(k.pendingKey('low priority')).toBe('asynq:{low priority}:pending');
    expect(k.groupKey('q', 'g')).toBe('asynq:{q}:g:g');
    expect(k.processedKey('q', new Date('2026-01-02T23:59:59Z'))).toBe('asynq:{q}:processed:2026-01-02');
    expect(k.serverInfoKey('host', 42, 'uuid')).toBe('asynq:servers:{host:42:uuid}');
    expect(k.schedulerHistoryKey('e1')).toBe('asynq:scheduler_history:e1');
  });

  it('names each state’s structure as asynq does, a group’s zset for aggregating', () => {
    expect(k.stateKey('q', 'pending')).toBe(k.pendingKey('q'));
    expect(k.stateKey('q', 'active')).toBe(k.activeKey('q'));
    expect(k.stateKey('q', 'scheduled')).toBe(k.scheduledKey('q'));
    expect(k.stateKey('q', 'retry')).toBe(k.retryKey('q'));
    expect(k.stateKey('q', 'archived')).toBe(k.archivedKey('q'));
    expect(k.stateKey('q', 'completed')).toBe('asynq:{q}:completed');
    expect(k.stateKey('q', 'aggregating', 'g1')).toBe('asynq:{q}:g:g1');
  });

  it('tells a nil payload from an empty one in the unique key, as Go does', () => {
    expect(k.uniqueKey('q', 'email', null)).toBe('asynq:{q}:unique:email:');
    expect(k.uniqueKey('q', 'email', new Uint8Array())).toBe('asynq:{q}:unique:email:d41d8cd98f00b204e9800998ecf8427e');
    // md5 over raw bytes, not over a text rendering of them
    expect(k.uniqueKey('q', 't', new Uint8Array([0xff]))).toBe('asynq:{q}:unique:t:00594fd4f42ba43fc1ca0427a0576295');
  });
});
