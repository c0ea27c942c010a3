import { describe, expect, it } from 'vitest';
import { crc16, keySlot, queueSlot, queueSlotProblem } from '@/lib/asynq/topology';

describe('crc16', () => {
  it('is CRC16-XMODEM (the check value of "123456789" is 0x31C3, as the Redis Cluster spec says)', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x31c3);
  });
});

describe('keySlot', () => {
  // Values from CLUSTER KEYSLOT on redis-server 7.0; tests/integration/cluster checks many more live.
  it.each([
    ['foo', 12182],
    ['bar', 5061],
    ['{user1000}.following', 3443],
    ['{user1000}.followers', 3443],
  ])('%s → %i', (key, slot) => {
    expect(keySlot(key)).toBe(slot);
  });

  it('hashes only the first non-empty {tag}', () => {
    expect(keySlot('asynq:{critical}:pending')).toBe(keySlot('critical'));
    expect(keySlot('asynq:{critical}:t:{x}')).toBe(keySlot('critical'));
    expect(keySlot('a{}b{c}')).toBe(keySlot('a{}b{c}'));
    expect(keySlot('a{}b{c}')).not.toBe(keySlot('c'));
    expect(keySlot('{a}b}')).toBe(keySlot('a'));
  });

  it('hashes bytes, so a string and its UTF-8 bytes land in the same slot', () => {
    expect(keySlot('asynq:{ünï}:pending')).toBe(keySlot(Buffer.from('asynq:{ünï}:pending')));
    expect(queueSlot('ünï')).toBe(keySlot('ünï'));
  });
});

describe('queueSlotProblem', () => {
  it('accepts names whose keys share one slot, } inside included', () => {
    for (const q of ['default', 'a}b', '{x', 'x}', 'a:b', ' ']) expect(queueSlotProblem(q)).toBeNull();
  });

  it('rejects a name starting with } or an empty one, naming the queue and the rule', () => {
    expect(queueSlotProblem('}x')).toBe('queue "}x": on Redis Cluster a queue name must not start with "}" (its keys would hash to different slots)');
    expect(queueSlotProblem('')).toMatch(/must not be empty/);
  });
});
