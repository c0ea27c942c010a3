/** Where the core reads the time, so tests can pin it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock stopped at `t`, for tests. */
export function fixedClock(t: Date): Clock {
  return { now: () => new Date(t.getTime()) };
}
