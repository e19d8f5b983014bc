// What a plugin's `import … from '@agent-studio/core'` gets: this app's core. The core module is put on globalThis
// (the first module instance to get here wins: Next may load the core once per server bundle, and the plugins must
// share one registry), and Node's module hooks (hooks.mjs) map the package name to a module re-exporting it.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import * as core from '../core';
import { coreFile } from '../config/core-files';
import { processWide } from '../config/process-wide';

export type Core = typeof core;

const KEY = 'agent-studio.core';

/** The core plugins import (installing the hooks on the first call). */
export function pluginCore(): Core {
  const g = globalThis as { [key: symbol]: Core | undefined };
  const shared = (g[Symbol.for(KEY)] ??= core);
  processWide('plugin-hooks', () => {
    const hooks = pathToFileURL(coreFile('lib', 'plugins', 'hooks.mjs')).href;
    register(hooks, { data: { key: KEY, exports: Object.keys(shared) } });
    return true;
  });
  return shared;
}
