/**
 * Every query key, from one factory. Keys are hierarchical and start with the resource, so a
 * mutation invalidates by prefix (`queryKeys.tasks.queue(q)` covers that queue's lists and
 * details). Components never build a key by hand: they spread a `*Query()` options object.
 */
import type { TaskStateDto } from '@/lib/contract/tasks';

export interface TaskPageParams {
  state: TaskStateDto;
  page: number;
  size: number;
  group?: string | undefined;
}

export const queryKeys = {
  health: ['health'] as const,
  queues: {
    all: ['queues'] as const,
    list: () => [...queryKeys.queues.all, 'list'] as const,
    detail: (qname: string) => [...queryKeys.queues.all, 'detail', qname] as const,
    history: (qname: string, days: number) => [...queryKeys.queues.all, 'history', qname, { days }] as const,
    groups: (qname: string) => [...queryKeys.queues.all, 'groups', qname] as const,
    archiveForecast: (qname: string, adding: number) => [...queryKeys.queues.all, 'archive-forecast', qname, { adding }] as const,
  },
  tasks: {
    all: ['tasks'] as const,
    queue: (qname: string) => [...queryKeys.tasks.all, qname] as const,
    lists: (qname: string) => [...queryKeys.tasks.queue(qname), 'list'] as const,
    list: (qname: string, p: TaskPageParams) =>
      [...queryKeys.tasks.lists(qname), p.state, { page: p.page, size: p.size, group: p.group ?? null }] as const,
    detail: (qname: string, taskId: string) => [...queryKeys.tasks.queue(qname), 'detail', taskId] as const,
    payload: (qname: string, taskId: string) => [...queryKeys.tasks.queue(qname), 'payload', taskId] as const,
  },
  servers: { all: ['servers'] as const },
  schedulers: {
    all: ['schedulers'] as const,
    list: () => [...queryKeys.schedulers.all, 'list'] as const,
    events: (entryId: string, page: number, size: number) =>
      [...queryKeys.schedulers.all, 'events', entryId, { page, size }] as const,
  },
  redis: { info: ['redis', 'info'] as const },
  search: {
    all: ['search'] as const,
    /** `filter` is the filter's query string: one key per distinct search. */
    results: (filter: string, size: number) => [...queryKeys.search.all, 'results', filter, { size }] as const,
  },
  enqueue: {
    all: ['enqueue'] as const,
    /** `input` carries a digest of the payload, not the payload (it can be megabytes). */
    check: (qname: string, input: Record<string, unknown>) => [...queryKeys.enqueue.all, 'check', qname, input] as const,
  },
  locks: {
    all: ['locks'] as const,
    queue: (qname: string) => [...queryKeys.locks.all, 'queue', qname] as const,
    /** Every lock of one queue, page by page (an infinite query over the SCAN cursor). */
    list: (qname: string) => [...queryKeys.locks.queue(qname), 'list'] as const,
    one: (qname: string, key: string) => [...queryKeys.locks.queue(qname), 'one', key] as const,
    /** Every lock of every queue, page by page. */
    every: () => [...queryKeys.locks.all, 'every'] as const,
  },
  duplicates: {
    all: ['duplicates'] as const,
    queue: (qname: string) => [...queryKeys.duplicates.all, qname] as const,
    scan: (qname: string, states: readonly string[], samples: number) =>
      [...queryKeys.duplicates.queue(qname), 'scan', { states: states.join(','), samples }] as const,
  },
  /** The triage scans (failures, not-found groups, task-type census); a re-run resets them all. */
  triage: {
    all: ['triage'] as const,
    /** `queue` null: every queue. */
    failures: (queue: string | null) => [...queryKeys.triage.all, 'failures', queue] as const,
    notFound: (queue: string | null) => [...queryKeys.triage.all, 'not-found', queue] as const,
    /** `queue` null: every queue. */
    taskTypes: (queue: string | null = null) => [...queryKeys.triage.all, 'task-types', queue] as const,
  },
  routing: {
    all: ['routing'] as const,
    patterns: () => [...queryKeys.routing.all, 'patterns'] as const,
    /** `queue` null: every queue; `type` null: every type of the queue. */
    verdicts: (queue: string | null = null, type: string | null = null) => [...queryKeys.routing.all, 'verdicts', queue, type] as const,
    /** Both lists as JSON text: one string each, however many entries (and newlines in them). */
    explain: (patterns: readonly string[], taskTypes: readonly string[]) =>
      [...queryKeys.routing.all, 'explain', { patterns: JSON.stringify(patterns), taskTypes: JSON.stringify(taskTypes) }] as const,
  },
};
