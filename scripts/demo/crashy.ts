/**
 * Runs crashy-worker.ts as a child process and SIGKILLs it on a schedule, restarting it
 * shortly after: a live demonstration of lease expiry and recovery.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface Crashy {
  stop(): void;
}

export function startCrashyWorker(redisUrl: string, { firstKillMs = 10_000, everyMs = 45_000, restartMs = 5000 } = {}): Crashy {
  const script = join(import.meta.dirname, 'crashy-worker.ts');
  let child: ChildProcess | null = null;
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  const launch = () => {
    if (stopped) return;
    child = spawn(process.execPath, ['--import', 'tsx', script, redisUrl], { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  const crash = () => {
    if (stopped) return;
    child?.kill('SIGKILL');
    console.log('  demo: killed the crashy worker mid-task (SIGKILL); its tasks will be recovered');
    timers.push(setTimeout(launch, restartMs));
  };
  launch();
  timers.push(setTimeout(() => {
    crash();
    timers.push(setInterval(crash, everyMs));
  }, firstKillMs));
  return {
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      child?.kill('SIGKILL');
    },
  };
}
