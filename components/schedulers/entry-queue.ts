/**
 * The queue a scheduler entry enqueues to: its `Queue("name")` option (Go's %q quoting), or
 * asynq's "default". Enqueue events carry only a task ID, so links to them need this.
 */
export function entryQueue(options: string[]): string {
  for (const o of options) {
    const m = /^Queue\((".*")\)$/.exec(o);
    if (m?.[1]) {
      try {
        return JSON.parse(m[1]) as string;
      } catch {
        return m[1].slice(1, -1);
      }
    }
  }
  return 'default';
}
