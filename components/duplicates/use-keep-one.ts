'use client';

import { useRef, useState } from 'react';
import type { DuplicateGroupDto, ResolveDuplicatesResultDto } from '@/lib/contract/diagnostics';
import { cancelScan, completeScan, MAX_SAMPLES, useResolveDuplicates } from '@/lib/query/duplicates';
import { keepOnePlan, type KeepOnePlan } from './keep-one';

export type KeepOneStep =
  | { step: 'idle' }
  | { step: 'listing'; groups: number }
  | { step: 'confirm'; plan: KeepOnePlan; near: boolean }
  | { step: 'failed'; message: string };

export interface KeepOneOutcome extends ResolveDuplicatesResultDto {
  groups: number;
}

/**
 * "Keep one, delete the rest" for some groups. A scan lists only 20 task IDs per group; when a
 * chosen group has more, a second scan of the same states lists up to 10,000 per group first,
 * so the confirmation names the exact number of tasks the request will delete.
 */
export function useKeepOne(qname: string, states: readonly string[]) {
  const [state, setState] = useState<KeepOneStep>({ step: 'idle' });
  const [outcome, setOutcome] = useState<KeepOneOutcome | null>(null);
  const listing = useRef<{ ctrl: AbortController; samples: number } | null>(null);
  const resolve = useResolveDuplicates(qname);

  const confirmPlan = (groups: DuplicateGroupDto[]) =>
    setState({ step: 'confirm', plan: keepOnePlan(groups), near: groups.some((g) => g.kind === 'near') });

  const start = async (groups: DuplicateGroupDto[]) => {
    setOutcome(null);
    if (keepOnePlan(groups).unlisted === 0) return confirmPlan(groups);
    const samples = Math.min(MAX_SAMPLES, Math.max(...groups.map((g) => g.count)));
    const ctrl = new AbortController();
    listing.current = { ctrl, samples };
    setState({ step: 'listing', groups: groups.length });
    try {
      const full = await completeScan(qname, states, samples, ctrl.signal);
      const chosen = new Set(groups.map((g) => g.id));
      confirmPlan(full.groups.filter((g) => chosen.has(g.id)));
    } catch (err) {
      if (!ctrl.signal.aborted) setState({ step: 'failed', message: err instanceof Error ? err.message : String(err) });
    } finally {
      if (listing.current?.ctrl === ctrl) listing.current = null;
    }
  };

  const close = () => {
    const l = listing.current;
    if (l) {
      l.ctrl.abort();
      void cancelScan(qname, states, l.samples).catch(() => {});
      listing.current = null;
    }
    resolve.reset();
    setState({ step: 'idle' });
  };

  const confirm = () => {
    if (state.step !== 'confirm') return;
    const { plan } = state;
    resolve.mutate(plan.ids, {
      onSuccess: (r) => {
        setOutcome({ ...r, groups: plan.groups });
        setState({ step: 'idle' });
      },
    });
  };

  return { state, outcome, start, close, confirm, pending: resolve.isPending, error: resolve.error, dismiss: () => setOutcome(null) };
}

export type KeepOne = ReturnType<typeof useKeepOne>;
