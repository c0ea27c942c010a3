/**
 * The demo's command line, read once: `--port N` (or `--port=N`; else $PORT; else 8080),
 * `--no-web`, `--check[=SECS]`. A bad value stops the demo with a message rather than starting
 * the dashboard somewhere the user did not ask for.
 */
export interface DemoOptions {
  port: number;
  web: boolean;
  /** Seconds before the self-check, or null for no check. */
  checkAfterSeconds: number | null;
}

export function parseDemoArgs(args: readonly string[], env: { PORT?: string | undefined } = {}): DemoOptions {
  let port = env.PORT ?? '8080';
  let web = true;
  let checkAfterSeconds: number | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--port') {
      const v = args[++i];
      if (v === undefined) throw new Error('--port needs a value: --port 8081');
      port = v;
    } else if (a.startsWith('--port=')) port = a.slice('--port='.length);
    else if (a === '--no-web') web = false;
    else if (a === '--check') checkAfterSeconds = 60;
    else if (a.startsWith('--check=')) {
      checkAfterSeconds = Number(a.slice('--check='.length));
      if (!Number.isFinite(checkAfterSeconds) || checkAfterSeconds <= 0) throw new Error(`--check: "${a.slice(8)}" is not a number of seconds`);
    } else throw new Error(`unknown option ${JSON.stringify(a)} (options: --port N, --no-web, --check[=SECS])`);
  }
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new Error(`--port / PORT: "${port}" is not a port number (1–65535)`);
  return { port: Number(port), web, checkAfterSeconds };
}
