// The plugins folder (PLUGINS_DIR): modules the server's owner puts there, loaded at start, each bringing tools and
// agents. A module that fails to load is kept as an error (its file name and message) and the others load. In
// development (`npm run dev`) a changed, added or removed file is loaded again: its tools and agents are replaced.
//
// A module may export, by name or in its default export:
//   tools:  a list of BaseTool subclasses (each registered under its `name`); a module may also call registerTool
//           itself, and any exported BaseTool subclass is registered too;
//   agents: a list of agent definitions, each the Agents page's export file or the bare `agent` object
//           (definition.ts); `agent`: one of them.
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginFailure } from '../chat/page';
import { CodedError, codedOf, type ErrorCode, type ErrorValues } from '../protocol/errors';
import { isPlainObject } from '../protocol/json';
import type { SavedAgent } from '../store/types';
import type { ToolClass } from '../../tools';
import { pluginAgentId, pluginAgentName } from '../chat/agent-ids';
import { isToolClass, pluginAgentDefinition, registerToolClass } from './definition';
import { pluginCore } from './register';

/** A plugin agent as the lists show it: a saved agent's shape, with the file it comes from. */
export interface PluginAgent extends SavedAgent {
  plugin: string;
}

export type PluginError = PluginFailure;

/** A module refused by the loader: its English line, and its code. */
class PluginLoadError extends CodedError {
  override name = 'PluginLoadError';
  constructor(
    code: ErrorCode,
    message: string,
    values?: ErrorValues,
    /** Where in the module ("agents[1]"). */
    readonly at?: string,
  ) {
    super(code, message, values);
  }
}

interface Loaded {
  file: string;
  tools: Map<string, ToolClass>;
  agents: PluginAgent[];
}

/** Marks a tool class as a plugin's (the file name), for the lists' "from code" note. */
export const PLUGIN_TOOL = Symbol.for('agent-studio.plugin-tool');

/** Is this a plugin module's file name? */
export function isPluginFile(name: string): boolean {
  return /\.(mjs|js|ts|mts)$/.test(name) && !name.endsWith('.d.ts') && !name.startsWith('.');
}

export class PluginCatalog {
  private readonly loaded = new Map<string, Loaded>();
  private readonly errors = new Map<string, PluginError>();
  private version = 0;
  private watcher?: FSWatcher;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    readonly dir: string,
    /** Modules outside the folder loaded too (the one `npm run serve` serves), by absolute path. */
    private readonly extra: readonly string[] = [],
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {}

  /** Loads every module (again). Resolves once all are loaded or have failed. */
  load(): Promise<void> {
    this.pending = this.pending.then(() => this.loadAll());
    return this.pending;
  }

  /** Loads the folder again whenever a file in it changes (development). */
  watch(): void {
    if (this.watcher) return;
    try {
      let timer: NodeJS.Timeout | undefined;
      this.watcher = watch(this.dir, () => {
        clearTimeout(timer);
        timer = setTimeout(() => void this.load(), 100);
      });
      this.watcher.unref();
    } catch {
      // no folder: nothing to watch
    }
  }

  close(): void {
    this.watcher?.close();
  }

  /** Every plugin agent, in file order. */
  agents(): PluginAgent[] {
    return [...this.loaded.values()].flatMap((l) => l.agents);
  }

  agent(id: string): PluginAgent | undefined {
    return this.agents().find((a) => a.id === id);
  }

  /** The first agent of the first module outside the folder (the one `npm run serve` serves), if it has one. */
  servedAgent(): PluginAgent | undefined {
    const first = this.extra[0];
    return first ? this.loaded.get(first)?.agents[0] : undefined;
  }

  /** Every plugin tool, by name. */
  tools(): Map<string, ToolClass> {
    return new Map([...this.loaded.values()].flatMap((l) => [...l.tools]));
  }

  failures(): PluginError[] {
    return [...this.errors.values()];
  }

  private files(): string[] {
    let names: string[] = [];
    try {
      names = readdirSync(this.dir)
        .filter(isPluginFile)
        .filter((n) => statSync(path.join(this.dir, n)).isFile())
        .sort();
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') this.log(`Plugins: cannot read ${this.dir}: ${String(e)}`);
    }
    return [...names.map((n) => path.join(this.dir, n)), ...this.extra];
  }

  private async loadAll(): Promise<void> {
    const core = pluginCore();
    this.version++;
    for (const old of this.loaded.values()) for (const name of old.tools.keys()) core.unregisterTool(name);
    this.loaded.clear();
    this.errors.clear();
    for (const file of this.files()) {
      // By its file name only: the page shows it to every user, and the server's paths are none of theirs.
      const shown = path.basename(file);
      try {
        this.loaded.set(file, await this.loadOne(file, shown));
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const coded = codedOf(e);
        const at = (e as { at?: unknown }).at;
        this.errors.set(shown, {
          file: shown,
          error: message,
          ...coded,
          ...(typeof at === 'string' ? { at } : {}),
        });
        this.log(`Plugin ${shown} failed to load: ${message}`);
      }
    }
    const count = this.agents().length;
    if (this.loaded.size || this.errors.size)
      this.log(
        `Plugins: ${this.loaded.size} loaded (${this.tools().size} tool(s), ${count} agent(s)), ${this.errors.size} failed.`,
      );
  }

  private async loadOne(file: string, shown: string): Promise<Loaded> {
    const core = pluginCore();
    const before = new Map(core.TOOL_REGISTRY);
    const registered = () => {
      const tools = new Map<string, ToolClass>();
      for (const [name, cls] of core.TOOL_REGISTRY) if (before.get(name) !== cls) tools.set(name, cls);
      return tools;
    };
    try {
      const url = `${pathToFileURL(file).href}?v=${this.version}`;
      const mod = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url)) as Record<string, unknown>;
      const exported = { ...(isPlainObject(mod.default) ? mod.default : {}), ...mod };
      const classes = [
        ...(Array.isArray(exported.tools) ? exported.tools : []),
        ...Object.values(exported).filter(isToolClass),
      ];
      for (const cls of classes) {
        if (!isToolClass(cls))
          throw new PluginLoadError('plugin-tool-not-class', 'tools: each entry is a class that extends BaseTool');
        registerToolClass(cls);
      }
      const entries = [
        ...(Array.isArray(exported.agents) ? exported.agents : []),
        ...(exported.agent !== undefined ? [exported.agent] : []),
      ];
      const now = statSync(file).mtimeMs;
      const agents: PluginAgent[] = entries.map((entry, i) => {
        try {
          const definition = pluginAgentDefinition(entry);
          const id = pluginAgentId(definition.name);
          if (this.agent(id))
            throw new PluginLoadError(
              'plugin-agent-taken',
              `another plugin already has an agent named "${definition.name}"`,
              { name: definition.name },
            );
          return { ...definition, id, createdAt: now, updatedAt: now, plugin: shown };
        } catch (e) {
          const message = `agents[${i}]: ${e instanceof Error ? e.message : String(e)}`;
          const coded = codedOf(e);
          if (!coded) throw new Error(message, { cause: e });
          throw new PluginLoadError(coded.code, message, coded.values, `agents[${i}]`);
        }
      });
      const names = new Set(agents.map((a) => a.id));
      for (const a of agents)
        for (const m of a.members)
          if (!names.has(m) && !this.agent(m)) {
            const member = pluginAgentName(m);
            throw new PluginLoadError(
              'plugin-member-missing',
              `${a.name}: its member "${member}" is not a plugin agent loaded before`,
              { agent: a.name, member },
            );
          }
      const tools = registered();
      for (const cls of tools.values()) Object.defineProperty(cls, PLUGIN_TOOL, { value: shown, configurable: true });
      if (!tools.size && !agents.length) throw new PluginLoadError('plugin-empty', 'it exports no tools and no agents');
      return { file, tools, agents };
    } catch (e) {
      // What the module registered before it failed goes again.
      for (const name of registered().keys()) core.unregisterTool(name);
      for (const [name, cls] of before) if (!core.TOOL_REGISTRY.has(name)) core.TOOL_REGISTRY.set(name, cls);
      throw e;
    }
  }
}
