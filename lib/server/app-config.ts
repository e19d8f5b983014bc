// The app's configuration: the environment read once per process, here, by the composition root. Everything the
// server serves gets its part from this (the services through lib/server/context.ts; the request checks of proxy.ts
// and of route handlers, the page's layout directly). Read on first use, which is after the server's start checks
// (instrumentation.ts), since they may turn accounts on (AUTH=required) before any request.
import { loadConfig, type AppConfig } from '../config';
import { dropProcessWide, processWide } from '../config/process-wide';

const CONFIG = 'app-config';

/** The process's configuration (a ConfigError, thrown on first use, says which setting is wrong). */
export function appConfig(): AppConfig {
  return processWide(CONFIG, () => loadConfig());
}

/** Forgets it: the next appConfig() reads the environment again (closeAppContext, when the services are rebuilt). */
export function forgetAppConfig(): void {
  dropProcessWide(CONFIG);
}
