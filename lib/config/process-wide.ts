// The objects that must outlive a module reload in `next dev` (the open database, runs in progress, MCP servers'
// child processes, Python interpreters): one holder on globalThis, so a reloaded module finds what the module it
// replaces had made. In a plain Node process each module loads once, and this is an ordinary map.

const HOLDER = Symbol.for('agent-studio.process-wide');

type Holder = Map<string, unknown>;

function holder(): Holder {
  const g = globalThis as { [HOLDER]?: Holder };
  return (g[HOLDER] ??= new Map());
}

/** The process's one `name`, made by `create` the first time it is asked for. */
export function processWide<T>(name: string, create: () => T): T {
  const all = holder();
  if (!all.has(name)) all.set(name, create());
  return all.get(name) as T;
}

/** The process's `name` if it was made. */
export function existingProcessWide<T>(name: string): T | undefined {
  return holder().get(name) as T | undefined;
}

/** Forgets `name` (after closing it), so the next processWide(name) makes a new one. */
export function dropProcessWide(name: string): void {
  holder().delete(name);
}
