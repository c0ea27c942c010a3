/**
 * The order in which a server polls its queues for the next task, as asynq's processor
 * builds it.
 */

/**
 * The configured priorities asynq keeps: blank names and priorities ≤ 0 are dropped, and an
 * empty result becomes `{ default: 1 }`. This is also what the heartbeat reports.
 */
export function cleanQueues(queues: Record<string, number> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, p] of Object.entries(queues ?? {})) {
    if (name.trim() !== '' && p > 0) out[name] = Math.trunc(p);
  }
  return Object.keys(out).length > 0 ? out : { default: 1 };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Priorities divided by their greatest common divisor ({a: 6, b: 3} → {a: 2, b: 1}). */
export function normalizeQueues(queues: Record<string, number>): Record<string, number> {
  const d = Object.values(queues).reduce(gcd, 0) || 1;
  return Object.fromEntries(Object.entries(queues).map(([q, p]) => [q, p / d]));
}

/**
 * Returns a function giving the polling order for one dequeue. Strict: highest priority
 * first, always (a lower queue is served only when every higher one is empty). Weighted: each
 * queue appears `priority` times in a shuffled list, then duplicates are dropped, so a queue
 * with priority 6 comes first six times as often as one with priority 1, and none starves.
 */
export function queueOrder(queues: Record<string, number>, strict: boolean, random: () => number = Math.random): () => string[] {
  const names = Object.keys(queues);
  if (names.length === 1) return () => names;
  if (strict) {
    const sorted = [...names].sort((a, b) => queues[b]! - queues[a]! || (a < b ? -1 : 1));
    return () => sorted;
  }
  const normalized = normalizeQueues(queues);
  const pool = names.flatMap((q) => Array<string>(normalized[q]!).fill(q));
  return () => {
    const list = [...pool];
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return [...new Set(list)];
  };
}
