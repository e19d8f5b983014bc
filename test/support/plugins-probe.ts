// Loads a plugins folder as the app does, in a plain Node process (`node --import tsx`), and prints one JSON line
// per load: the agents, each plugin tool with what it answers to `TOOL_ARGS` (a JSON map name -> arguments), the
// failures, and whether the tools sit in this process's own tool registry. `--watch` keeps watching (a changed file
// loads again and prints again). Usage: plugins-probe.ts <dir> [extra module...] [--watch]
import { PluginCatalog } from '../../lib/plugins/catalog';
import { createTool, TOOL_REGISTRY } from '../../tools';

const args = process.argv.slice(2);
const watching = args.includes('--watch');
const [dir, ...extra] = args.filter((a) => a !== '--watch');
const toolArgs = JSON.parse(process.env.TOOL_ARGS ?? '{}') as Record<string, unknown>;

async function report(catalog: PluginCatalog) {
  const tools: Record<string, { inRegistry: boolean; answer?: unknown }> = {};
  for (const name of catalog.tools().keys()) {
    const input = toolArgs[name];
    tools[name] = {
      inRegistry: TOOL_REGISTRY.has(name),
      ...(input
        ? { answer: await createTool(name).call(JSON.stringify(input), { files: [], lang: 'en', messages: [] }) }
        : {}),
    };
  }
  const agents = catalog.agents().map(({ id, name, plugin, tools, systemMessage, suggestions, generateCfg }) => ({
    id,
    name,
    plugin,
    tools,
    systemMessage,
    suggestions,
    generateCfg,
  }));
  console.log(JSON.stringify({ agents, tools, failures: catalog.failures(), served: catalog.servedAgent()?.name }));
}

// A load's report is printed once the folder is watched: a test that changes a file after the first report must
// not change it before the watcher is there to see it.
let watched = false;
const catalog: PluginCatalog = new PluginCatalog(dir!, extra, (line) => {
  console.error(line);
  if (watched && line.startsWith('Plugins:')) void report(catalog);
});
async function main() {
  await catalog.load();
  if (watching) {
    catalog.watch();
    setInterval(() => {}, 1000); // the watcher does not hold the process open
  }
  watched = true;
  await report(catalog);
  if (!watching) setTimeout(() => process.exit(0), 50);
}
void main();
