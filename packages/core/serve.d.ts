import type { ChildProcess, StdioOptions } from 'node:child_process';

export interface ServeOptions {
  /** The Agent Studio app's folder (a checkout where `npm ci` ran); default: AGENT_STUDIO_APP. */
  app?: string;
  /** Default: PORT, else 3000. */
  port?: number | string;
  /** Where the app keeps its data; default: DATA_DIR, else the app's `data`. */
  dataDir?: string;
  /** More environment for the app (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL…). */
  env?: Record<string, string | undefined>;
  /** false: serve the app's build as it is (no build step). */
  build?: boolean;
  /** The app's output; default: this process's. */
  stdio?: StdioOptions;
}

export interface ServedApp {
  /** The app's address, e.g. http://127.0.0.1:3000. */
  url: string;
  process: ChildProcess;
  /** Stops the app; resolves with its exit code. */
  close(signal?: NodeJS.Signals): Promise<number>;
  /** Resolves with the exit code when the app stops. */
  exited: Promise<number>;
}

/** Starts the Agent Studio app serving the agents and tools of `agentModule` (a path or a file: URL), its first
 *  agent the default of new conversations; resolves once the app answers. */
export function serve(agentModule: string | URL, options?: ServeOptions): Promise<ServedApp>;
