import { cn, errorRate, formatCompact, formatNumber, formatPercent } from '@/lib/utils';

export interface DayPoint {
  date: string;
  processed: number;
  failed: number;
}

/** A tidy upper bound for the y axis: 1, 2, 2.5 or 5 × 10ⁿ at or above `max`. */
function niceMax(max: number): number {
  if (max <= 0) return 4;
  const pow = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * pow >= max) ?? 10;
  return step * pow;
}

const TICKS = [0, 0.25, 0.5, 0.75, 1];
const SLOT = 10;
const BAR = 6;

function Tooltip({ d }: { d: DayPoint }) {
  const rate = errorRate(d.processed, d.failed);
  return (
    <div className="pointer-events-none absolute bottom-full left-1/2 z-10 mb-1 hidden -translate-x-1/2 rounded-md border border-line bg-panel px-2 py-1 text-[11px] whitespace-nowrap shadow-lg group-hover:block">
      <div className="font-medium">{d.date}</div>
      <div className="tabular text-muted">
        {formatNumber(d.processed)} processed · {formatNumber(d.failed)} failed{rate !== null && ` (${formatPercent(rate)})`}
      </div>
    </div>
  );
}

/**
 * Daily processed tasks (succeeded + failed, stacked), oldest first, as server-rendered SVG: no
 * charting library and no JavaScript. The bars stretch with the panel (a 10-unit slot per day,
 * `preserveAspectRatio="none"`); labels and tooltips are HTML, so text never distorts.
 */
export function HistoryChart({ days }: { days: DayPoint[] }) {
  const top = niceMax(Math.max(0, ...days.map((d) => d.processed)));
  const y = (v: number) => 100 - (v / top) * 100;
  const labelEvery = Math.max(1, Math.ceil(days.length / 15));
  const width = Math.max(1, days.length) * SLOT;
  return (
    <div className="relative h-[190px]">
      <div className="absolute top-2 bottom-6 left-0 w-9">
        {TICKS.map((f) => (
          <span key={f} className="tabular absolute right-1 -translate-y-1/2 text-[10px] text-subtle" style={{ top: `${(1 - f) * 100}%` }}>
            {formatCompact(top * f)}
          </span>
        ))}
      </div>
      <div className="absolute top-2 right-1 bottom-6 left-10">
        <svg viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" role="img" aria-label="Tasks processed and failed per day" className="absolute inset-0 size-full overflow-visible">
          {TICKS.map((f) => (
            <line key={f} x1={0} x2={width} y1={y(top * f)} y2={y(top * f)} stroke="var(--border)" strokeDasharray={f === 0 ? undefined : '2 3'} vectorEffect="non-scaling-stroke" />
          ))}
          {days.map((d, i) => {
            const ok = Math.max(0, d.processed - d.failed);
            const x = i * SLOT + (SLOT - BAR) / 2;
            return (
              <g key={d.date}>
                <rect x={x} y={y(ok)} width={BAR} height={100 - y(ok)} fill="var(--chart-processed)" />
                <rect x={x} y={y(d.processed)} width={BAR} height={y(ok) - y(d.processed)} fill="var(--chart-failed)" />
              </g>
            );
          })}
        </svg>
        <div className="absolute inset-0 flex">
          {days.map((d, i) => (
            <div key={d.date} className="group relative flex-1 hover:bg-hover/50">
              <Tooltip d={d} />
              {(days.length - 1 - i) % labelEvery === 0 && (
                <span
                  className={cn(
                    'absolute top-full left-1/2 mt-1 -translate-x-1/2 text-[10px] whitespace-nowrap text-subtle',
                    (days.length - 1 - i) % (labelEvery * 3) !== 0 && 'max-sm:hidden',
                  )}
                >
                  {d.date.slice(5)}
                </span>
              )}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
