import 'server-only';
import { AuthConfigError, authConfig } from './config';

export type LoginPageState =
  | { kind: 'form'; basePath: string }
  | { kind: 'elsewhere'; mode: 'proxy' | 'none'; basePath: string }
  | { kind: 'problem'; message: string };

/** What /login shows: the form (login mode), a pointer onwards (proxy, none), or the configuration problem. */
export function loginPageState(): LoginPageState {
  try {
    const cfg = authConfig();
    if (cfg.mode === 'login') return { kind: 'form', basePath: cfg.basePath };
    return { kind: 'elsewhere', mode: cfg.mode, basePath: cfg.basePath };
  } catch (err) {
    if (err instanceof AuthConfigError) return { kind: 'problem', message: err.message };
    throw err;
  }
}
