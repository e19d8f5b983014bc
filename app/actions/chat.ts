'use server';
// Server actions the page calls. Wiring only: the work is in lib/chat.
import type { FeedEvent } from '@/lib/chat/browser-feed';
import { browserFeed, getChatService, storedForBrowser } from '@/lib/chat';
import { loadConfig, modelStatus } from '@/lib/config';
import { getDocumentService } from '@/lib/documents';
import { agentLang } from '@/lib/i18n/locales';
import { defaultSettings } from '@/lib/store/settings';
import { getLocale } from 'next-intl/server';
import type { ConversationSettings, ConversationSummary, RunStatus, StoredTurn } from '@/lib/store/types';
import { isMcpToolClass, prepareMcpTools } from '@/lib/mcp';
import { TOOL_REGISTRY, unavailableReason } from '@/tools';
import { ActionError, failure, type ActionFailure } from './action-error';

export interface RunStream {
  conversationId: string;
  turnId: string;
  runId: string;
  events: AsyncIterable<FeedEvent>;
}

export interface TurnData {
  turn: StoredTurn;
  runId?: string;
  runStatus?: RunStatus;
  runCount: number;
  events: FeedEvent[];
}

export interface ConversationData {
  id: string;
  title: string;
  settings: ConversationSettings;
  turns: TurnData[];
}

export type ActionResult<T> = { ok: true; value: T } | ActionFailure;

async function attempt<T>(fn: () => T | Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return failure(e);
  }
}

function stream(started: {
  conversationId: string;
  turnId: string;
  runId: string;
  live: Parameters<typeof browserFeed>[0];
}): RunStream {
  // Closing the page ends the stream, and that stops the run.
  return {
    conversationId: started.conversationId,
    turnId: started.turnId,
    runId: started.runId,
    events: browserFeed(started.live, { stopOnLeave: true }),
  };
}

/** The tools of a turn's conversation (MCP tools among them must be registered before its agent is made). */
function toolsOfTurn(turnId: string): string[] | undefined {
  const { store } = getChatService();
  const turn = store.getTurn(turnId);
  return turn ? store.getConversation(turn.conversationId)?.settings.tools : undefined;
}

export async function sendMessage(input: {
  conversationId?: string;
  message: string;
  settings?: Partial<ConversationSettings>;
}): Promise<ActionResult<RunStream>> {
  await prepareMcpTools(
    input.settings?.tools ??
      (input.conversationId
        ? getChatService().store.getConversation(input.conversationId)?.settings.tools
        : defaultSettings().tools),
  );
  await getChatService().documentsSettled(input.conversationId);
  const lang = agentLang(await getLocale()); // the agent speaks the page's language unless the conversation says
  return attempt(() =>
    stream(
      getChatService().send({
        conversationId: input.conversationId,
        content: input.message,
        settings: input.settings,
        lang,
      }),
    ),
  );
}

export async function regenerate(turnId: string): Promise<ActionResult<RunStream>> {
  await prepareMcpTools(toolsOfTurn(turnId));
  const lang = agentLang(await getLocale());
  return attempt(() => stream(getChatService().regenerate(turnId, lang)));
}

export async function editAndResend(turnId: string, message: string): Promise<ActionResult<RunStream>> {
  await prepareMcpTools(toolsOfTurn(turnId));
  await getChatService().documentsSettled(getChatService().store.getTurn(turnId)?.conversationId);
  const lang = agentLang(await getLocale());
  return attempt(() => stream(getChatService().editAndResend(turnId, message, lang)));
}

export async function stopRun(runId: string): Promise<boolean> {
  return getChatService().stop(runId);
}

/** Follows a run still going in this process (after a reload), from its first event. */
export async function followRun(runId: string): Promise<AsyncIterable<FeedEvent> | null> {
  const live = getChatService().live(runId);
  return live ? browserFeed(live, { stopOnLeave: false }) : null;
}

export async function listConversations(query?: string): Promise<ConversationSummary[]> {
  return getChatService().store.listConversations(query?.trim() || undefined);
}

export async function loadConversation(id: string): Promise<ActionResult<ConversationData>> {
  return attempt(() => {
    const { store } = getChatService();
    const conversation = store.getConversation(id);
    if (!conversation) throw new ActionError('conversation-gone', 'This conversation no longer exists.');
    const turns = store.listTurns(id).map((r) => ({
      turn: r.turn,
      runId: r.run?.id,
      runStatus: r.run?.status,
      runCount: r.runCount,
      events: storedForBrowser(r.events),
    }));
    return { id, title: conversation.title, settings: conversation.settings, turns };
  });
}

export async function renameConversation(id: string, title: string): Promise<ActionResult<null>> {
  return attempt(() => {
    const clean = title.trim();
    if (!clean) throw new ActionError('empty-title', 'A title cannot be empty.');
    getChatService().store.renameConversation(id, clean.slice(0, 200));
    return null;
  });
}

export async function deleteConversation(id: string): Promise<ActionResult<null>> {
  return attempt(async () => {
    await getChatService().stopConversation(id);
    await getDocumentService().deleteConversation(id);
    return null;
  });
}

export async function saveSettings(
  id: string,
  settings: Partial<ConversationSettings>,
): Promise<ActionResult<ConversationSettings>> {
  return attempt(() => getChatService().store.updateSettings(id, settings).settings);
}

export interface AppInfo {
  model: { configured: boolean; name: string | null; baseURL: string | null };
  tools: { name: string; description: string }[];
  maxLlmCalls: number;
  defaultSettings: ConversationSettings;
}

export async function appInfo(): Promise<AppInfo> {
  void prepareMcpTools([]); // servers start connecting while the page loads
  const config = loadConfig();
  const status = modelStatus(config);
  return {
    model: { configured: status.configured, name: status.model ?? null, baseURL: status.baseURL ?? null },
    defaultSettings: defaultSettings(),
    // MCP tools are listed per server (integrations.ts); tools that cannot run here (web_search without a
    // provider) are not offered.
    tools: [...TOOL_REGISTRY.entries()]
      .filter(([, cls]) => !isMcpToolClass(cls) && !unavailableReason(cls))
      .map(([name, cls]) => ({ name, description: new cls().description }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    maxLlmCalls: config.maxLlmCallsPerRun,
  };
}
