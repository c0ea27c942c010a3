import 'server-only';
import { serversListeningOn, type FailureGroup, type NotFoundGroup, type ServerWithWorkers } from '@asynqlens/asynq';
import type { FailureGroupDto, NotFoundGroupDto } from '@/lib/contract/triage';
import { isoSec } from './time';


/** A not-found group with the live servers listening on its queue. */
export function toNotFoundDto(g: NotFoundGroup, servers: readonly ServerWithWorkers[]): NotFoundGroupDto {
  const listeners = serversListeningOn(servers, g.queue).map((s) => ({ id: s.serverId, host: s.host, pid: s.pid, status: s.status }));
  return {
    queue: g.queue,
    taskType: g.taskType,
    archived: g.archived,
    retry: g.retry,
    pending: g.pending,
    scheduled: g.scheduled,
    retriesSpent: g.retriesSpent,
    firstFailedAt: isoSec(g.first),
    lastFailedAt: isoSec(g.last),
    sampleTaskIds: [...g.sampleTaskIds],
    servers: listeners.map((l) => l.id),
    listeners,
    message: g.message,
    explanation: g.explanation,
  };
}

/** A failure group; `explain` words the not-found ones. */
export function toFailureDto(g: FailureGroup, explain: (taskType: string) => string): FailureGroupDto {
  return {
    kind: g.notFoundType === null ? 'error' : 'handler_not_found',
    signature: g.signature,
    taskType: g.notFoundType,
    explanation: g.notFoundType === null ? null : explain(g.notFoundType),
    count: g.retry + g.archived,
    retry: g.retry,
    archived: g.archived,
    retriesSpent: g.retriesSpent,
    queues: [...g.queues].map(([queue, c]) => ({ queue, ...c })).sort((a, b) => b.retry + b.archived - (a.retry + a.archived) || (a.queue < b.queue ? -1 : 1)),
    taskTypes: [...g.taskTypes].map(([taskType, count]) => ({ taskType, count })).sort((a, b) => b.count - a.count || (a.taskType < b.taskType ? -1 : 1)),
    otherTypes: g.otherTypes,
    firstSeenAt: isoSec(g.first),
    lastSeenAt: isoSec(g.last),
    samples: g.samples.map((s) => ({ ...s })),
    exampleMessage: g.example,
  };
}
