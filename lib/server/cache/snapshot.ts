import 'server-only';
import { env } from '../config/env';
import { cachedView } from './views';

/**
 * What the API's views (queues, tasks, servers, locks …) show, shared by every viewer for
 * ASYNQLENS_SNAPSHOT_MS (default 1000 ms): one Redis read per view per interval, however many
 * browser tabs poll it. Any mutation clears it.
 */
export const shared = cachedView<unknown>({ name: 'snapshot', ttlMs: () => env().ASYNQLENS_SNAPSHOT_MS, changedByMutations: true, maxEntries: 500 });
