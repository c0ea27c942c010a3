/**
 * Which search parameters narrow a search, free of zod on purpose: the search page imports it
 * into the browser bundle, where zod's eval probe would be refused by the console's CSP.
 */
export const SEARCH_LIST_PARAMS = ['queue', 'state', 'type', 'typePrefix'] as const;
export const SEARCH_TEXT_PARAMS = ['id', 'payload', 'error', 'q'] as const;

/**
 * Whether a filter parameter narrows by queue, type, state or text (ID, payload, error,
 * header, a search query). An action on a filter without one reaches every task of every queue, so it needs
 * an explicit `all: true`; the browser asks the same question before it sends one.
 */
export const narrowsByParam = (key: string): boolean =>
  (SEARCH_LIST_PARAMS as readonly string[]).includes(key) ||
  (SEARCH_TEXT_PARAMS as readonly string[]).includes(key) ||
  key.startsWith('payload.') ||
  key.startsWith('header.');
