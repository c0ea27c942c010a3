'use client';

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/common/page-header';
import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import { healthQuery } from '@/lib/query/health';
import { useSettings } from '@/lib/query/settings';
import { POLL_INTERVALS, type ThemePref } from '@/lib/query/settings-values';
import { cn, formatDuration } from '@/lib/utils';

function Choice<T extends string | number>({ name, value, options, onChange }: { name: string; value: T; options: [T, string][]; onChange: (v: T) => void }) {
  return (
    <div role="radiogroup" aria-label={name} className="inline-flex rounded-md border border-line-strong p-0.5">
      {options.map(([v, label]) => (
        <button
          key={String(v)}
          type="button"
          role="radio"
          aria-checked={v === value}
          onClick={() => onChange(v)}
          className={cn('h-7 rounded px-2.5 text-xs', v === value ? 'bg-accent text-accent-fg' : 'text-muted hover:text-fg')}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

function Row({ title, hint, children }: { title: string; hint: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line py-3 last:border-b-0">
      <div>
        <p className="font-medium">{title}</p>
        <p className="text-xs text-muted">{hint}</p>
      </div>
      {children}
    </div>
  );
}

/** Preferences of this browser (localStorage): how often to refresh, and the theme. */
export function SettingsView() {
  const [settings, write] = useSettings();
  const { data: health } = useQuery({ ...healthQuery(), refetchInterval: false });
  return (
    <>
      <PageHeader title="Settings" meta={<span>Stored in this browser only.</span>} />
      <Panel>
        <Row title="Auto-refresh" hint="How often open views re-read Redis. Hidden tabs never poll; idle data is re-read less often.">
          <Choice
            name="Auto-refresh interval"
            value={settings.pollIntervalMs}
            options={POLL_INTERVALS.map((ms) => [ms, ms === 0 ? 'Off' : formatDuration(ms / 1000)])}
            onChange={(pollIntervalMs) => write({ pollIntervalMs })}
          />
        </Row>
        <Row title="Theme" hint="System follows your operating system's light or dark setting.">
          <Choice<ThemePref>
            name="Theme"
            value={settings.theme}
            options={[['system', 'System'], ['light', 'Light'], ['dark', 'Dark']]}
            onChange={(theme) => write({ theme })}
          />
        </Row>
        <Row
          title="Mode"
          hint="Set by the server (ASYNQLENS_READ_ONLY). Read-only hides every action that changes Redis."
        >
          {health ? <Badge tone={health.readOnly ? 'amber' : 'green'}>{health.readOnly ? 'read-only' : 'read-write'}</Badge> : <Badge>unknown</Badge>}
        </Row>
        <Row title="Versions" hint="The dashboard and the Redis server it reads.">
          <span className="text-xs text-muted">{health ? `asynqlens ${health.version} · Redis ${health.redisVersion}` : '—'}</span>
        </Row>
      </Panel>
    </>
  );
}
