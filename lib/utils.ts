/**
 * Small formatting helpers shared by every view. Pure functions, no React.
 */
import { clsx, type ClassValue } from 'clsx';

export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}

const nf = new Intl.NumberFormat('en-US');

export function formatNumber(n: number): string {
  return nf.format(n);
}

/** 1234 → "1.2k", 2_500_000 → "2.5M": for dense cells where exact digits add noise. */
export function formatCompact(n: number): string {
  if (Math.abs(n) < 10_000) return nf.format(n);
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/**
 * Seconds → "45s", "30m", "1h 5m", "3d 4h": the one way the console writes a duration
 * (timeouts, retention, unique TTLs, lock TTLs, ages, intervals). Shown, it keeps the two
 * largest units; `exact` keeps every unit ("1d 1h 1m 1s"), for a form field whose text
 * parseDuration must read back as the same number. Negative durations are shown as their size.
 */
export function formatDuration(seconds: number, { exact = false }: { exact?: boolean } = {}): string {
  const abs = Math.abs(seconds);
  if (exact && !Number.isInteger(abs)) return abs < 1 ? `${Math.round(abs * 1000)}ms` : `${abs}s`;
  let s = Math.round(abs);
  if (s < 60) return `${s}s`;
  const parts: [number, string][] = [];
  for (const [size, unit] of [[86_400, 'd'], [3600, 'h'], [60, 'm'], [1, 's']] as const) {
    parts.push([Math.floor(s / size), unit]);
    s %= size;
  }
  const first = parts.findIndex(([n]) => n > 0);
  const kept = exact ? parts.slice(first) : parts.slice(first, first + 2);
  return kept.filter(([n]) => n > 0).map(([n, unit]) => `${n}${unit}`).join(' ');
}

/** An ISO time relative to `now`: "in 5m", "3h ago". */
export function formatRelative(iso: string | null, now = Date.now()): string {
  if (!iso) return '—';
  const diff = (Date.parse(iso) - now) / 1000;
  if (Math.abs(diff) < 1) return 'now';
  return diff > 0 ? `in ${formatDuration(diff)}` : `${formatDuration(diff)} ago`;
}

/** An ISO time as "2026-11-30 03:10:16 UTC": unambiguous for people comparing logs. */
export function formatTimestamp(iso: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  const p = ratio * 100;
  if (p === 0) return '0%';
  if (p < 0.1) return '<0.1%';
  return `${p < 10 ? p.toFixed(1) : Math.round(p)}%`;
}

/** Failed ÷ processed for a day's counters; null when nothing ran. */
export function errorRate(processed: number, failed: number): number | null {
  return processed > 0 ? failed / processed : null;
}

/** The first `max` characters of untrusted text on one line, for table cells. */
export function preview(text: string, max = 120): string {
  const oneLine = text.length > max * 4 ? text.slice(0, max * 4) : text;
  // Only ASCII spacing is folded: any other invisible character must reach the escaping display.
  const flat = oneLine.replace(/[\t\n\r ]+/g, ' ').replace(/^ | $/g, '');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * "90", "90s", "1.5s", "500ms", "5m", "1h30m", "2d" → seconds; null when it is not a duration.
 * A bare number is seconds. Fractions are kept (asynq refuses a unique TTL under 1 s, and the
 * form must be able to send one to show that refusal).
 */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  if (t === '') return null;
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(t)) return null;
  let total = 0;
  for (const [, n, unit] of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) total += Number(n) * (UNIT_SECONDS[unit ?? 's'] ?? 1);
  return total;
}
