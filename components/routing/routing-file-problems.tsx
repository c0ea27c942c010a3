import { SafeText } from '@/components/ui/safe-text';
import type { RoutingProblemDto } from '@/lib/contract/routing-verdicts';

const RULE: Record<RoutingProblemDto['rule'], string> = {
  unreadable: 'cannot be read',
  not_json: 'not JSON',
  shape: 'wrong shape',
  invalid_pattern: 'invalid pattern',
  duplicate_pattern: 'pattern twice',
  duplicate_group: 'group twice',
  unknown_queue: 'unknown queue',
  unknown_group: 'unknown group',
  never_matches: 'never matches',
};

/**
 * What is wrong with the routing file, by file, line and rule. The console keeps running on
 * the rest (a group that cannot be read declares nothing), so these are warnings, not an error page.
 */
export function RoutingFileProblems({ problems }: { problems: RoutingProblemDto[] }) {
  if (problems.length === 0) return null;
  return (
    <section aria-label="Routing file problems" data-testid="routing-problems" className="border-b border-line bg-warning-soft px-3 py-2 text-[13px]">
      <p className="font-medium text-warning">The routing file has {problems.length === 1 ? 'a problem' : `${problems.length} problems`}; the verdicts use the rest of it.</p>
      <ul className="mt-1 flex flex-col gap-0.5 text-xs">
        {problems.map((p, i) => (
          <li key={i} data-rule={p.rule} className="break-words">
            <span className="font-mono text-fg">
              <SafeText text={p.file} />
              {p.line !== null && `:${p.line}`}
            </span>{' '}
            <span className="font-medium text-warning">{RULE[p.rule]}</span>
            {p.field && <span className="font-mono text-muted"> ({p.field})</span>}: <SafeText text={p.message} />
          </li>
        ))}
      </ul>
    </section>
  );
}
