import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '@/lib/utils';

/** Dense data table primitives; the wrapper scrolls sideways on narrow screens. */
export function Table({ className, ...props }: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className="overflow-x-auto">
      <table className={cn('w-full border-collapse text-left text-[13px]', className)} {...props} />
    </div>
  );
}

export function THead(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead {...props} />;
}

/** A column heading: its label, or the label with classes for its cell (`text-right`, a width). */
export type Heading = string | { label?: string; className: string };

/** A table's header row, one heading a column. */
export function HeadRow({ headings }: { headings: readonly Heading[] }) {
  return (
    <thead>
      <tr>
        {headings.map((h, i) => (typeof h === 'string' ? <TH key={i}>{h}</TH> : <TH key={i} className={h.className}>{h.label}</TH>))}
      </tr>
    </thead>
  );
}

export function TBody(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody {...props} />;
}

export function TR({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('border-b border-line last:border-b-0', className)} {...props} />;
}

const HEADING = 'h-8 border-b border-line bg-bg-subtle px-3 text-[11px] font-medium tracking-wide whitespace-nowrap text-muted uppercase';

export function TH({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th className={cn(HEADING, className)} {...props} />;
}

export function TD({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('h-9 px-3 align-middle', className)} {...props} />;
}
