// Node module hooks for plugins (module.register, lib/plugins/register.ts; they run in Node's loader thread):
// - `@agent-studio/core` imported by a plugin, wherever its file is, resolves to the app's own core: a module that
//   re-exports what the app put on globalThis, so there is one tool registry, the running app's (in the built app
//   the core is inside Next's bundle, where no file path could reach it);
// - a plugin loaded again after a change (its URL carries `?v=N`) passes that version to the relative imports it
//   makes, so the helper files next to it are read again too;
// - `.ts` / `.mts` files outside node_modules have their type annotations stripped by esbuild's transform (Node 20
//   cannot run TypeScript; esbuild is what builds the core package, and it strips without type-checking, in
//   milliseconds).
let coreUrl;

export function initialize(data) {
  const names = data.exports.filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
  const source =
    `const core = globalThis[Symbol.for(${JSON.stringify(data.key)})];\n` +
    `if (!core) throw new Error('@agent-studio/core is only available to plugins the app loads.');\n` +
    `export const { ${names.join(', ')} } = core;\n` +
    'export default core;\n';
  coreUrl = `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;
}

const VERSION = /[?&]v=([^&#]+)/;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === '@agent-studio/core') return { url: coreUrl, format: 'module', shortCircuit: true };
  const resolved = await nextResolve(specifier, context);
  const version = context.parentURL && VERSION.exec(context.parentURL);
  if (version && /^\.\.?\//.test(specifier) && resolved.url.startsWith('file:') && !resolved.url.includes('?'))
    return { ...resolved, url: `${resolved.url}?v=${version[1]}` };
  return resolved;
}

export async function load(url, context, nextLoad) {
  const file = url.startsWith('file:') ? new URL(url).pathname : '';
  if (!/\.m?ts$/.test(file) || file.includes('/node_modules/')) return nextLoad(url, context);
  const { source } = await nextLoad(url, { ...context, format: 'module' });
  const { transform } = await import('esbuild');
  const { code } = await transform(String(source), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcefile: decodeURIComponent(file),
    sourcemap: 'inline',
  });
  return { format: 'module', source: code, shortCircuit: true };
}
