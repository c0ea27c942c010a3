/**
 * Encodes and decodes the protobuf messages asynq keeps in Redis. The only file that touches
 * the generated code, so the rest of the core sees plain domain types (types.ts).
 *
 * Every decoder throws {@link CodecError} with the reason when the bytes are not a valid
 * message; callers turn that into a flagged row instead of failing a whole page.
 */
import { isUtf8 } from 'node:buffer';
import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import {
  SchedulerEnqueueEventSchema,
  SchedulerEntrySchema,
  ServerInfoSchema,
  TaskMessageSchema,
  WorkerInfoSchema,
} from './proto/gen/asynq_pb';
import { writeTaskMessage } from './task-message-writer';
import { readTaskMsg } from './task-msg-view';
import { encodePublishedPatterns, readPublishedPatterns } from './published-patterns';
import type {
  SchedulerEnqueueEvent,
  SchedulerEntry,
  ServerInfo,
  TaskMessage,
  WorkerInfo,
} from './types';

/** Raised when bytes read from Redis are not the protobuf message they should be. */
export class CodecError extends Error {
  override readonly name = 'CodecError';
}

/** Seconds of Go's zero `time.Time` (0001-01-01T00:00:00Z), which Go writes for "never". */
const GO_ZERO_TIME_SECONDS = -62135596800n;

/** Decodes `bytes` as `schema`'s message; CodecError naming the message when they are not one. */
function decode<Desc extends DescMessage>(schema: Desc, bytes: Uint8Array): MessageShape<Desc> {
  try {
    return fromBinary(schema, bytes);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new CodecError(`not a valid ${schema.name}: ${reason}`);
  }
}

/** Encodes a message the way Go's protobuf-go does: ascending field numbers, proto3 defaults omitted. */
function encode<Desc extends DescMessage>(schema: Desc, init: MessageInitShape<Desc>): Uint8Array {
  return toBinary(schema, create(schema, init));
}

/** Timestamp → Date; absent or Go's zero time → null. */
export function timestampToDate(ts: Timestamp | undefined): Date | null {
  if (!ts || ts.seconds === GO_ZERO_TIME_SECONDS) return null;
  return new Date(Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6));
}

/**
 * The string at [start, end) of `msg`, or null when it is not valid UTF-8 (protobuf-es refuses
 * those). ASCII, what task types, IDs and queue names almost always are, is checked here
 * without the view of the bytes that isUtf8 needs.
 */
function text(msg: Buffer, start: number, end: number): string | null {
  let i = start;
  while (i < end && msg[i]! < 0x80) i++;
  if (i < end && !isUtf8(msg.subarray(i, end))) return null;
  return start === end ? '' : msg.toString('utf8', start, end);
}

/**
 * The message from task-msg-view.ts' one pass over it, exactly what protobuf-es decodes (its
 * rules are the view's: last field wins, int32 as the low 32 bits, int64 to the nearest
 * Number, strings checked as UTF-8, a leading U+FEFF kept as text); null when the view does
 * not apply (malformed bytes, a known field of another wire type or a string field sent twice,
 * a string that is not UTF-8),
 * which protobuf-es then reads, or refuses, as it always has. A page of tasks decodes 20 msgs
 * per request: protobuf-es made about 1.6 KB of objects each, this about half that.
 */
function fromView(bytes: Uint8Array): TaskMessage | null {
  const msg = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const v = readTaskMsg(msg);
  if (v === null || v.unusual) return null;
  const type = text(msg, v.typeStart, v.typeEnd);
  const id = text(msg, v.idStart, v.idEnd);
  const queue = text(msg, v.queueStart, v.queueEnd);
  const errorMsg = text(msg, v.errorStart, v.errorEnd);
  const uniqueKey = text(msg, v.uniqueKeyStart, v.uniqueKeyEnd);
  const groupKey = text(msg, v.groupKeyStart, v.groupKeyEnd);
  if (type === null || id === null || queue === null || errorMsg === null || uniqueKey === null || groupKey === null) return null;
  const headers: Record<string, string> = {};
  const spans = v.headerSpans;
  if (spans !== null) {
    for (let i = 0; i < spans.length; i += 4) {
      const key = text(msg, spans[i]!, spans[i + 1]!);
      const value = text(msg, spans[i + 2]!, spans[i + 3]!);
      if (key === null || value === null) return null;
      // An own property even for "__proto__", as protobuf-es and the spread copy make it.
      if (key === '__proto__') Object.defineProperty(headers, key, { value, writable: true, enumerable: true, configurable: true });
      else headers[key] = value;
    }
  }
  return {
    type,
    // A view into the reply, as protobuf-es gives it; a new empty array when absent.
    payload: v.hasPayload ? bytes.subarray(v.payloadStart, v.payloadEnd) : new Uint8Array(0),
    id,
    queue,
    retry: v.retry,
    retried: v.retried,
    errorMsg,
    timeout: v.timeout,
    deadline: v.deadline,
    uniqueKey,
    lastFailedAt: v.lastFailedAt,
    retention: v.retention,
    completedAt: v.completedAt,
    groupKey,
    headers,
  };
}

/** Decodes the `msg` field of a task hash. */
export function decodeTaskMessage(bytes: Uint8Array): TaskMessage {
  return fromView(bytes) ?? decodeWithProtobufEs(bytes);
}

/**
 * The same message through protobuf-es's generated decoder: the path for what the one-pass
 * reader cannot vouch for, and the reference the tests hold that reader to.
 */
export function decodeWithProtobufEs(bytes: Uint8Array): TaskMessage {
  // Field by field, not a rest copy of the message: a rest copy of a protobuf-es message is
  // several times slower.
  const m = decode(TaskMessageSchema, bytes);
  return {
    type: m.type,
    payload: m.payload,
    id: m.id,
    queue: m.queue,
    retry: m.retry,
    retried: m.retried,
    errorMsg: m.errorMsg,
    timeout: Number(m.timeout),
    deadline: Number(m.deadline),
    uniqueKey: m.uniqueKey,
    lastFailedAt: Number(m.lastFailedAt),
    retention: Number(m.retention),
    completedAt: Number(m.completedAt),
    groupKey: m.groupKey,
    headers: { ...m.headers },
  };
}

/**
 * Encodes a task message as Go does. Map entry order may differ from Go's (Go's own is random),
 * which no asynq script depends on: lists and sets hold IDs, never `msg` bytes. Written by hand
 * (task-message-writer.ts), not by protobuf-es: it runs for every task enqueued or finished.
 */
export function encodeTaskMessage(msg: TaskMessage): Uint8Array {
  return writeTaskMessage(msg);
}

/** The server a heartbeat or worker record comes from, as asynq names it: host, PID, server ID. */
function serverIdentity(m: { host: string; pid: number; serverId: string }): { host: string; pid: number; serverId: string } {
  return { host: m.host, pid: m.pid, serverId: m.serverId };
}

/** Decodes a server's heartbeat record. */
export function decodeServerInfo(bytes: Uint8Array): ServerInfo {
  const m = decode(ServerInfoSchema, bytes);
  return {
    ...serverIdentity(m),
    concurrency: m.concurrency,
    queues: { ...m.queues },
    strictPriority: m.strictPriority,
    status: m.status,
    startedAt: timestampToDate(m.startTime),
    activeWorkerCount: m.activeWorkerCount,
    ...withPatterns(readPublishedPatterns(m.$unknown)),
  };
}

const withPatterns = (patterns: string[] | null): { patterns?: string[] } => (patterns ? { patterns } : {});

/**
 * Encodes a server heartbeat record (used by the TypeScript task server): asynq's fields as Go
 * writes them, then the published patterns, if any, as a field Go's decoder skips.
 */
export function encodeServerInfo(info: ServerInfo): Uint8Array {
  const { patterns, ...known } = info;
  const bytes = encode(ServerInfoSchema, { ...known, startTime: timestampFromDate(info.startedAt ?? new Date(0)) });
  if (!patterns || patterns.length === 0) return bytes;
  const extra = encodePublishedPatterns(patterns);
  const out = new Uint8Array(bytes.length + extra.length);
  out.set(bytes);
  out.set(extra, bytes.length);
  return out;
}

/** Decodes one value of a server's workers hash. */
export function decodeWorkerInfo(bytes: Uint8Array): WorkerInfo {
  const m = decode(WorkerInfoSchema, bytes);
  return {
    ...serverIdentity(m),
    taskId: m.taskId,
    taskType: m.taskType,
    taskPayload: m.taskPayload,
    queue: m.queue,
    startedAt: timestampToDate(m.startTime),
    deadline: timestampToDate(m.deadline),
  };
}

/** Encodes one worker record (used by the TypeScript task server). */
export function encodeWorkerInfo(w: WorkerInfo): Uint8Array {
  return encode(WorkerInfoSchema, {
    ...w,
    startTime: timestampFromDate(w.startedAt ?? new Date(0)),
    deadline: timestampFromDate(w.deadline ?? new Date(0)),
  });
}

/**
 * Decodes one element of a scheduler's entries list, the mirror of encodeSchedulerEntry. A rest
 * copy here, unlike decodeTaskMessage: a scheduler lists a handful of entries, not thousands.
 */
export function decodeSchedulerEntry(bytes: Uint8Array): SchedulerEntry {
  const { $typeName: _, nextEnqueueTime, prevEnqueueTime, enqueueOptions, ...rest } = decode(SchedulerEntrySchema, bytes);
  return {
    ...rest,
    enqueueOptions: [...enqueueOptions],
    nextEnqueueAt: timestampToDate(nextEnqueueTime),
    prevEnqueueAt: timestampToDate(prevEnqueueTime),
  };
}

/** Decodes one member of a scheduler entry's history zset. */
export function decodeSchedulerEnqueueEvent(bytes: Uint8Array): SchedulerEnqueueEvent {
  const m = decode(SchedulerEnqueueEventSchema, bytes);
  return { taskId: m.taskId, enqueuedAt: timestampToDate(m.enqueueTime) };
}

/** Go's zero time.Time (0001-01-01T00:00:00Z), what Go writes for "never ran". */
const GO_ZERO_TIME = new Date(Number(GO_ZERO_TIME_SECONDS) * 1000);

/** One element of `asynq:schedulers:{<id>}`; a never-run entry carries Go's zero time. */
export function encodeSchedulerEntry(e: SchedulerEntry): Uint8Array {
  const { nextEnqueueAt, prevEnqueueAt, ...rest } = e;
  return encode(SchedulerEntrySchema, {
    ...rest,
    nextEnqueueTime: timestampFromDate(nextEnqueueAt ?? GO_ZERO_TIME),
    prevEnqueueTime: timestampFromDate(prevEnqueueAt ?? GO_ZERO_TIME),
  });
}

/** One member of `asynq:scheduler_history:<entryId>`. */
export function encodeSchedulerEnqueueEvent(taskId: string, enqueuedAt: Date): Uint8Array {
  return encode(SchedulerEnqueueEventSchema, { taskId, enqueueTime: timestampFromDate(enqueuedAt) });
}
