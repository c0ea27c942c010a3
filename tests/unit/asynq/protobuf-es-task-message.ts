/**
 * What protobuf-es's generated decoder makes of a TaskMessage's bytes, in the codec's shape:
 * the reference decodeTaskMessage (and the one-pass reader beneath it) is held to. Throws
 * where protobuf-es refuses the bytes.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { TaskMessageSchema } from '@/lib/asynq/proto/gen/asynq_pb';
import type { TaskMessage } from '@/lib/asynq/types';

export function decodeWithProtobufEs(bytes: Uint8Array): TaskMessage {
  const m = fromBinary(TaskMessageSchema, bytes);
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
