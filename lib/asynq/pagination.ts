/** A 1-based page of `size` items. */
export interface PageParams {
  page: number;
  size: number;
}

/** 0-based inclusive ranks [start, stop] of a page, as asynq's inspector computes them. */
export function pageRange({ page, size }: PageParams): [number, number] {
  const start = (page - 1) * size;
  return [start, start + size - 1];
}
