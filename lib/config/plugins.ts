// Where plugins come from (lib/plugins): PLUGINS_DIR, by default DATA_DIR/plugins; SERVE_AGENT, the module
// `npm run serve` serves (its first agent is the default of new conversations); reloaded on change in development.
import path from 'node:path';

export interface PluginsConfig {
  dir: string;
  /** An absolute path, or undefined. */
  serve?: string;
  watch: boolean;
}

export function pluginsConfig(env: Record<string, string | undefined>): PluginsConfig {
  const dataDir = path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR?.trim() || 'data');
  const serve = env.SERVE_AGENT?.trim();
  return {
    dir: path.resolve(/*turbopackIgnore: true*/ env.PLUGINS_DIR?.trim() || path.join(dataDir, 'plugins')),
    ...(serve ? { serve: path.resolve(/*turbopackIgnore: true*/ serve) } : {}),
    watch: env.NODE_ENV === 'development',
  };
}
