import type { SVGProps } from 'react';

/** A handful of 16px stroke icons, drawn inline (no icon library in the bundle). */
const PATHS = {
  overview: 'M2.5 2.5h4.5v5.5H2.5zM9 2.5h4.5v3H9zM9 7.5h4.5v6H9zM2.5 10h4.5v3.5H2.5z',
  server: 'M2.5 3h11v4h-11zM2.5 9h11v4h-11zM5 5h.01M5 11h.01',
  clock: 'M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11M8 5v3l2 1.5',
  database: 'M3 4c0-1.1 2.2-2 5-2s5 .9 5 2-2.2 2-5 2-5-.9-5-2M3 4v8c0 1.1 2.2 2 5 2s5-.9 5-2V4M3 8c0 1.1 2.2 2 5 2s5-.9 5-2',
  settings: 'M8 5.5a2.5 2.5 0 1 0 0 5a2.5 2.5 0 1 0 0-5M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4',
  queue: 'M2.5 4h11M2.5 8h11M2.5 12h7',
  chevronRight: 'M6 3.5 10.5 8 6 12.5',
  chevronDown: 'M3.5 6 8 10.5 12.5 6',
  copy: 'M5.5 5.5h8v8h-8zM3 10.5H2.5v-8h8V3',
  check: 'M3 8.5 6.5 12 13 4.5',
  play: 'M4.5 3v10l8-5z',
  archive: 'M2 3h12v3H2zM3 6v7h10V6M6.5 8.5h3',
  trash: 'M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4',
  pause: 'M5 3v10M11 3v10',
  stop: 'M4 4h8v8H4z',
  alert: 'M8 1.8 14.5 13.5h-13zM8 6v3.5M8 11.5h.01',
  lock: 'M4 7h8v6.5H4zM5.5 7V5a2.5 2.5 0 0 1 5 0v2',
  download: 'M8 2.5v8M4.5 7 8 10.5 11.5 7M3 13.5h10',
  arrowLeft: 'M13 8H3M7 4 3 8l4 4',
  sun: 'M8 5a3 3 0 1 0 0 6a3 3 0 1 0 0-6M8 1v1.5M8 13.5V15M1 8h1.5M13.5 8H15M3 3l1 1M12 12l1 1M3 13l1-1M12 4l1-1',
  moon: 'M13.5 9.5A5.5 5.5 0 0 1 6.5 2.5a5.5 5.5 0 1 0 7 7',
  search: 'M7 2.5a4.5 4.5 0 1 0 0 9a4.5 4.5 0 1 0 0-9M10.3 10.3 13.5 13.5',
  plus: 'M8 3v10M3 8h10',
  x: 'M4 4l8 8M12 4l-8 8',
  star: 'M8 2l1.8 3.9 4.2.5-3.1 2.9.8 4.2L8 11.4l-3.7 2.1.8-4.2L2 6.4l4.2-.5z',
  link: 'M6.5 9.5l3-3M7 4.5l1-1a2.8 2.8 0 0 1 4 4l-1 1M9 11.5l-1 1a2.8 2.8 0 0 1-4-4l1-1',
  upload: 'M8 10.5v-8M4.5 6 8 2.5 11.5 6M3 13.5h10',
  edit: 'M10.5 2.5l3 3L6 13H3v-3z',
  route: 'M3.5 13.5V9.5a3 3 0 0 1 3-3h6M10 4l2.5 2.5L10 9M3.5 2.5v4',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 14, ...props }: { name: IconName; size?: number } & SVGProps<SVGSVGElement>) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.4}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      {...props}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
