/** Code-unit order, as the inspector sorts names (not the locale's collation, which varies). */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
