import type { RedisInfoDto } from '@/lib/contract/servers';
import { formatBytes, formatDuration, formatNumber, formatPercent } from '@/lib/utils';

type Info = RedisInfoDto['info'];

function Stat({ label, value, sub }: { label: string; value: string; sub?: string }) {
  return (
    <div className="rounded-lg border border-line bg-panel px-3 py-2.5">
      <p className="text-[11px] font-medium tracking-wide text-muted uppercase">{label}</p>
      <p className="tabular mt-1 truncate text-lg font-semibold tracking-tight">{value}</p>
      {sub && <p className="truncate text-xs text-muted">{sub}</p>}
    </div>
  );
}

const num = (v: string | undefined) => (v === undefined ? NaN : Number(v));

/** The INFO fields an operator checks first. */
export function RedisHighlights({ info }: { info: Info }) {
  const s = info.server ?? {};
  const m = info.memory ?? {};
  const st = info.stats ?? {};
  const hits = num(st.keyspace_hits);
  const misses = num(st.keyspace_misses);
  const maxmem = num(m.maxmemory);
  const keys = Object.values(info.keyspace ?? {}).reduce((n, v) => n + Number(/keys=(\d+)/.exec(v)?.[1] ?? 0), 0);
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
      <Stat label="Version" value={s.redis_version ?? '—'} sub={`${s.redis_mode ?? 'standalone'} · ${s.os ?? ''}`} />
      <Stat label="Uptime" value={s.uptime_in_seconds ? formatDuration(num(s.uptime_in_seconds)) : '—'} sub={s.tcp_port ? `port ${s.tcp_port}` : undefined} />
      <Stat label="Clients" value={formatNumber(num(info.clients?.connected_clients ?? '0'))} sub={`${info.clients?.blocked_clients ?? 0} blocked`} />
      <Stat
        label="Memory"
        value={m.used_memory ? formatBytes(num(m.used_memory)) : '—'}
        sub={`peak ${m.used_memory_peak ? formatBytes(num(m.used_memory_peak)) : '—'} · max ${maxmem > 0 ? formatBytes(maxmem) : 'none'}${m.maxmemory_policy ? ` (${m.maxmemory_policy})` : ''}`}
      />
      <Stat label="Ops / sec" value={formatNumber(num(st.instantaneous_ops_per_sec ?? '0'))} sub={`${formatNumber(num(st.total_commands_processed ?? '0'))} commands total`} />
      <Stat
        label="Keys"
        value={formatNumber(keys)}
        sub={hits + misses > 0 ? `${formatPercent(hits / (hits + misses))} keyspace hit rate` : 'no lookups yet'}
      />
    </div>
  );
}
