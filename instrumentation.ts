/**
 * Runs once when the server starts: a configuration mistake (a malformed Redis URL, sentinels
 * without a master name, authentication without users) stops the server with one clear line
 * instead of answering every request with an error.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { exitOnConfigurationProblem } = await import('@/lib/server/config/startup-check');
  exitOnConfigurationProblem();
}
