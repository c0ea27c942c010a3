/**
 * `demo --check`: proof that the demo does what it promises. After the given time it looks at
 * Redis through the inspector and lists what is missing among the states, failure kinds,
 * lock situations, servers and scheduler entries the dashboard shows; then it checks that the
 * numbers keep moving.
 */
import type { Redis } from 'ioredis';
import { createInspector } from '../../lib/asynq';
import { TASK_STATES } from '../../lib/asynq/states';

const FAILURES: [string, RegExp][] = [
  ['handler not found', /^handler not found for task "/],
  ['plain error', /unexpected EOF|503 Service Unavailable|SMTP 421/],
  ['deadline exceeded', /^context deadline exceeded$/],
  ['canceled', /^context canceled$/],
  ['lease expired', /^asynq: task lease expired$/],
  ['skip retry', /skip retry for the task$/],
];

export interface Census {
  states: Set<string>;
  failures: Set<string>;
  locks: Set<string>;
  orphaned: number;
  servers: number;
  workers: number;
  schedulerEntries: number;
  processed: number;
}

export async function census(redis: Redis): Promise<Census> {
  const insp = createInspector(redis);
  const c: Census = { states: new Set(), failures: new Set(), locks: new Set(), orphaned: 0, servers: 0, workers: 0, schedulerEntries: 0, processed: 0 };
  for (const q of await insp.queues()) {
    c.processed += q.processedTotal;
    for (const state of TASK_STATES) {
      if (state === 'aggregating') continue;
      const tasks = [];
      for (let page = 1; page <= 10; page++) {
        const batch = (await insp.tasks(q.queue, state, { page, size: 100 })).tasks;
        tasks.push(...batch);
        if (batch.length < 100) break;
      }
      if (tasks.length > 0) c.states.add(state);
      for (const t of tasks) {
        if (t.isOrphaned) c.orphaned++;
        const err = t.message?.errorMsg ?? '';
        for (const [name, re] of FAILURES) if (re.test(err)) c.failures.add(name);
        if (t.uniqueLock) c.locks.add(t.uniqueLock.holderId === null ? 'gone' : t.uniqueLock.ownedByThisTask ? 'owned' : 'held by another');
      }
    }
    if (q.aggregating > 0) c.states.add('aggregating');
  }
  const servers = await insp.servers();
  c.servers = servers.length;
  c.workers = servers.reduce((n, s) => n + s.workers.length, 0);
  c.schedulerEntries = (await insp.schedulerEntries()).length;
  return c;
}

/** What `c` lacks of the demo's promise; empty when everything is there. */
export function missing(c: Census): string[] {
  const out: string[] = [];
  for (const s of TASK_STATES) if (!c.states.has(s)) out.push(`state ${s}`);
  for (const [name] of FAILURES) if (!c.failures.has(name)) out.push(`failure kind "${name}"`);
  for (const l of ['owned', 'held by another', 'gone']) if (!c.locks.has(l)) out.push(`lock ${l}`);
  if (c.servers < 1 || c.workers < 1) out.push('a server with active workers');
  if (c.schedulerEntries < 1) out.push('scheduler entries');
  return out;
}

export function describe(c: Census): string {
  return `states [${[...c.states].join(' ')}] failures [${[...c.failures].join(', ')}] locks [${[...c.locks].join(', ')}] orphaned ${c.orphaned} servers ${c.servers} workers ${c.workers} scheduler entries ${c.schedulerEntries} processed ${c.processed}`;
}
