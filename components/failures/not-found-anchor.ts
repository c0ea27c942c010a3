/** The id of a not-found group's card on /failures (a task page's link scrolls to it). */
export const notFoundAnchor = (taskType: string): string => `not-found-${encodeURIComponent(taskType)}`;
