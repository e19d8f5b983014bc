// What the page is told of the server when it loads: whether a model is set up for this user (never a key), the
// tools this user can offer (those the admin has not enabled for users are left out), the limits, who is signed in.
// No model server is asked anything here: the page lists the models afterwards.
import type { AppInfo, NotOfferedTool } from '../chat/page';
import { isMcpToolClass, prepareMcpTools } from '../mcp';
import { codedOf } from '../protocol/errors';
import { TOOL_REGISTRY, toolUnavailableError, unavailableReason, type ToolClass } from '../../tools';
import type { Viewer } from '../auth/viewer';
import type { AppContext } from './context';
import { pluginOfTool, syncPluginTools } from '../plugins';

export async function appInfo(ctx: AppContext, viewer: Viewer): Promise<AppInfo> {
  void prepareMcpTools(ctx.mcp, []); // servers start connecting while the page loads
  // Web search as the admin page last set it (another instance sharing the database may have changed it).
  await ctx.webSearch.apply().catch(() => {});
  const codeInterpreter = await ctx.tools.sandbox.info();
  // image_gen needs a connection of this user's with an images endpoint.
  const makesImages = Boolean(await ctx.models.imageEndpoint(viewer.owner).catch(() => undefined));
  if (ctx.plugins) syncPluginTools(ctx.plugins);
  const served = ctx.plugins?.servedAgent();
  // MCP tools are listed per server (integrations.ts); tools that cannot run here (web_search without a provider,
  // amap_weather and image_search without their keys, image_gen without an images endpoint) are not offered. Each
  // prepared as a run would (code_interpreter's description then names its backend's packages).
  const notOffered = (name: string, cls: ToolClass): NotOfferedTool | undefined => {
    const reason = unavailableReason(cls, ctx.tools);
    if (reason) {
      if (!viewer.admin) return { name, why: 'unavailable' };
      const refusal = toolUnavailableError(name, reason);
      const { code, values = {} } = codedOf(refusal)!;
      return { name, why: 'unavailable', refusal: { message: refusal.message, code, values } };
    }
    if (viewer.toolRefusal(name)) return { name, why: 'not-enabled' };
    if (name === 'image_gen' && !makesImages) return { name, why: 'no-images' };
    return undefined;
  };
  const builtin = [...TOOL_REGISTRY.entries()].filter(([, cls]) => !isMcpToolClass(cls));
  const tools = builtin
    .filter(([name, cls]) => !notOffered(name, cls))
    .map(async ([name, cls]) => {
      const tool = new cls();
      await tool.prepare?.(ctx.tools);
      const plugin = pluginOfTool(cls);
      return { name, description: tool.description, ...(plugin ? { plugin } : {}) };
    });
  return {
    models: { configured: await ctx.models.anyConfigured(viewer.owner), admin: viewer.admin },
    defaultSettings: ctx.defaultSettings(),
    tools: (await Promise.all(tools)).sort((a, b) => a.name.localeCompare(b.name)),
    notOffered: builtin.flatMap(([name, cls]) => notOffered(name, cls) ?? []),
    maxLlmCalls: ctx.config.maxLlmCallsPerRun,
    ...(viewer.admin && ctx.plugins?.failures().length ? { pluginFailures: ctx.plugins.failures() } : {}),
    ...(served
      ? {
          defaultAgent: {
            id: served.id,
            name: served.name,
            avatar: served.avatar,
            description: served.description,
            suggestions: served.suggestions,
          },
        }
      : {}),
    codeInterpreter: viewer.admin ? codeInterpreter : { backend: codeInterpreter.backend },
    account:
      viewer.via === 'session' || viewer.via === 'api-key'
        ? { email: viewer.email ?? '', name: viewer.name ?? '', admin: viewer.admin }
        : null,
  };
}
