import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import {
  CodecError,
  decodeSchedulerEnqueueEvent,
  decodeSchedulerEntry,
  decodeServerInfo,
  decodeTaskMessage,
  decodeWorkerInfo,
  encodeSchedulerEnqueueEvent,
  encodeServerInfo,
  encodeTaskMessage,
  encodeWorkerInfo,
} from '@/lib/asynq/codec';
import { PUBLISHED_PATTERNS_FIELD } from '@/lib/asynq/published-patterns';
import { SchedulerEnqueueEventSchema, SchedulerEntrySchema, ServerInfoSchema, WorkerInfoSchema } from '@/lib/asynq/proto/gen/asynq_pb';
import type { TaskMessage } from '@/lib/asynq';

const msg: TaskMessage = {
  type: 'email:welcome',
  payload: new Uint8Array([0x7b, 0x7d]),
  id: 'id-1',
  queue: 'default',
  retry: 25,
  retried: 0,
  errorMsg: '',
  timeout: 1800,
  deadline: 0,
  uniqueKey: '',
  lastFailedAt: 0,
  retention: 0,
  completedAt: 0,
  groupKey: '',
  headers: {},
};

describe('TaskMessage codec', () => {
  it('writes fields in ascending number order and omits proto3 defaults, as protobuf-go does', () => {
    // type(1) "email:welcome", payload(2) "{}", id(3) "id-1", queue(4) "default", retry(5) 25, timeout(8) 1800
    const expected = Buffer.concat([
      Buffer.from([0x0a, 13]), Buffer.from('email:welcome'),
      Buffer.from([0x12, 2, 0x7b, 0x7d]),
      Buffer.from([0x1a, 4]), Buffer.from('id-1'),
      Buffer.from([0x22, 7]), Buffer.from('default'),
      Buffer.from([0x28, 25]),
      Buffer.from([0x40, 0x88, 0x0e]),
    ]);
    expect(Buffer.from(encodeTaskMessage(msg)).toString('hex')).toBe(expected.toString('hex'));
  });

  it('round-trips every field, headers included', () => {
    const full: TaskMessage = {
      ...msg, retried: 3, errorMsg: 'boom', deadline: 1_800_000_000, uniqueKey: 'asynq:{default}:unique:x:',
      lastFailedAt: 1_799_999_999, retention: 3600, completedAt: 1_799_999_000, groupKey: 'g', headers: { a: '1', b: '' },
    };
    expect(decodeTaskMessage(encodeTaskMessage(full))).toEqual(full);
  });

  it('throws a CodecError naming the message on bytes that are not protobuf', () => {
    expect(() => decodeTaskMessage(new Uint8Array([0xff, 0xff, 0xff, 0x07]))).toThrow(CodecError);
    expect(() => decodeTaskMessage(new Uint8Array([0xff, 0xff, 0xff, 0x07]))).toThrow(/not a valid TaskMessage/);
  });

  it('reads Go’s zero time as "never", not as year 1', () => {
    const bytes = toBinary(
      SchedulerEntrySchema,
      create(SchedulerEntrySchema, {
        id: 'e', spec: '@every 1s',
        nextEnqueueTime: { seconds: 1_800_000_000n, nanos: 500_000_000 },
        prevEnqueueTime: { seconds: -62135596800n, nanos: 0 },
      }),
    );
    const e = decodeSchedulerEntry(bytes);
    expect(e.prevEnqueueAt).toBeNull();
    expect(e.nextEnqueueAt?.toISOString()).toBe('2027-01-15T08:00:00.500Z');
  });

  // Go writes these with timestamppb.New(t): nanoseconds. We write every digit a Date has
  // (milliseconds), and read Go's down to the millisecond.
  const goTime = { seconds: 1_800_000_000n, nanos: 123_456_789 };
  const at = new Date('2027-01-15T08:00:00.123Z');

  it('reads Go’s nanosecond start times, deadlines and enqueue times to the millisecond', () => {
    expect(decodeServerInfo(toBinary(ServerInfoSchema, create(ServerInfoSchema, { startTime: goTime }))).startedAt).toEqual(at);
    const w = decodeWorkerInfo(toBinary(WorkerInfoSchema, create(WorkerInfoSchema, { startTime: goTime, deadline: goTime })));
    expect([w.startedAt, w.deadline]).toEqual([at, at]);
    expect(decodeSchedulerEnqueueEvent(toBinary(SchedulerEnqueueEventSchema, create(SchedulerEnqueueEventSchema, { taskId: 't', enqueueTime: goTime }))).enqueuedAt).toEqual(at);
  });

  it('writes our times with their milliseconds, never cut to whole seconds', () => {
    const ms = { seconds: 1_800_000_000n, nanos: 123_000_000 };
    const server = fromBinary(ServerInfoSchema, encodeServerInfo({ host: 'h', pid: 1, serverId: 's', concurrency: 1, queues: {}, strictPriority: false, status: 'active', startedAt: at, activeWorkerCount: 0 }));
    expect(server.startTime).toMatchObject(ms);
    const worker = fromBinary(WorkerInfoSchema, encodeWorkerInfo({ host: 'h', pid: 1, serverId: 's', taskId: 't', taskType: 'x', taskPayload: new Uint8Array(), queue: 'q', startedAt: at, deadline: at }));
    expect([worker.startTime, worker.deadline]).toMatchObject([ms, ms]);
    expect(fromBinary(SchedulerEnqueueEventSchema, encodeSchedulerEnqueueEvent('t', at)).enqueueTime).toMatchObject(ms);
  });

  it('publishes a server\u2019s patterns as a field asynq\u2019s ServerInfo does not define, and reads them back', () => {
    const base = { host: 'h', pid: 1, serverId: 's', concurrency: 1, queues: { q: 1 }, strictPriority: false, status: 'active', startedAt: at, activeWorkerCount: 0 };
    const patterns = ['email:', 'quote"in', 'é:日本', ''];
    const bytes = encodeServerInfo({ ...base, patterns });
    // The known fields decode exactly as without the patterns; the patterns are an unknown field.
    const m = fromBinary(ServerInfoSchema, bytes);
    expect(toBinary(ServerInfoSchema, m, { writeUnknownFields: false })).toEqual(encodeServerInfo(base));
    expect(m.$unknown?.map((u) => u.no)).toEqual(patterns.map(() => PUBLISHED_PATTERNS_FIELD));
    expect(decodeServerInfo(bytes)).toEqual({ ...base, patterns });
    // Nothing published: no field, and no `patterns` key.
    expect(fromBinary(ServerInfoSchema, encodeServerInfo(base)).$unknown).toBeUndefined();
    expect('patterns' in decodeServerInfo(encodeServerInfo(base))).toBe(false);
    expect(encodeServerInfo({ ...base, patterns: [] })).toEqual(encodeServerInfo(base));
  });
});
