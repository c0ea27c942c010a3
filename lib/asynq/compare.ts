/** Code-unit order, as asynq's inspector sorts names (not the locale's collation, which varies). */
export const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
