'use server';
// Server actions the page calls. Wiring only: the work is in lib/chat, built once in lib/server/context.ts. Each
// acts for the user guardAction resolves, and sees only that user's objects.
import type { Viewer } from '@/lib/auth/viewer';
import { liveFeed, PAGE_LEAVE, runFeed } from '@/lib/chat/feed';
import { listVersion } from '@/lib/chat/list-version';
import type { ActionResult, AppInfo, ConversationData, RunStream, TurnAnswer } from '@/lib/chat/page';
import { SettingsPatchSchema, type SettingsPatch } from '@/lib/protocol/conversation-settings';
import { parseRequest } from '@/lib/chat/requests';
import { callLimited, startLimited } from '@/lib/http/run-limits';
import type { SimulatedTurn, StartedRun } from '@/lib/chat/service';
import { CodedError } from '@/lib/protocol/errors';
import type { FeedEvent } from '@/lib/protocol/events';
import { appInfo as describeApp } from '@/lib/server/app-info';
import { appContext, type AppContext } from '@/lib/server/context';
import type { ConversationSettings, ConversationSummary } from '@/lib/store/types';
import { agentLang } from '@/lib/i18n/locales';
import { failure } from './action-error';
import { guardAction, requestLimitKey } from './guard';
import { currentLocale } from '@/app/i18n/locale';

async function attempt<T>(fn: (ctx: AppContext) => T | Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn(await appContext()) };
  } catch (e) {
    return failure(e);
  }
}

/** A run started within the user's run limits, and its feed (see PAGE_LEAVE). */
async function stream(ctx: AppContext, me: Viewer, start: () => Promise<StartedRun>): Promise<RunStream> {
  const { content, ...started } = await startLimited(ctx.runLimits, await requestLimitKey(me), start, (runId) =>
    ctx.runs.ended(runId),
  );
  const events = runFeed(ctx.runs, ctx.store, me.owner, started.runId, PAGE_LEAVE);
  // A plain message comes back as the page sent it: only one that carries files is worth its bytes.
  return typeof content === 'string' ? { ...started, events } : { ...started, content, events };
}

/** The agent speaks the page's language, unless the conversation's settings name one. */
async function pageLang() {
  return agentLang(await currentLocale());
}

export async function sendMessage(input: {
  conversationId?: string;
  message: string;
  settings?: SettingsPatch;
}): Promise<ActionResult<RunStream>> {
  const me = await guardAction('sendMessage');
  const lang = await pageLang();
  return attempt((ctx) => stream(ctx, me, () => ctx.chat.send(me, { ...input, lang })));
}

export async function regenerate(turnId: string): Promise<ActionResult<RunStream>> {
  const me = await guardAction('regenerate');
  const lang = await pageLang();
  return attempt((ctx) => stream(ctx, me, () => ctx.chat.regenerate(me, turnId, lang)));
}

export async function editAndResend(turnId: string, message: string): Promise<ActionResult<RunStream>> {
  const me = await guardAction('editAndResend');
  const lang = await pageLang();
  return attempt((ctx) => stream(ctx, me, () => ctx.chat.editAndResend(me, turnId, message, lang)));
}

/** "Simulate a user": the simulated user's next line in the conversation (the page sends it as the next message), or
 *  its word that the conversation is over. */
export async function simulateUserTurn(
  conversationId: string,
  options: { persona?: string } = {},
): Promise<ActionResult<SimulatedTurn>> {
  const me = await guardAction('simulateUserTurn');
  const lang = await pageLang();
  return attempt(async (ctx) =>
    callLimited(ctx.runLimits, await requestLimitKey(me), () =>
      ctx.chat.simulateUser(me, String(conversationId), { ...(options ?? {}), lang }),
    ),
  );
}

export async function stopRun(runId: string): Promise<boolean> {
  const me = await guardAction('stopRun');
  return (await appContext()).chat.stop(me, runId);
}

/** Follows a run still going (after a reload), from its first event; leaving it again does as PAGE_LEAVE says. */
export async function followRun(runId: string): Promise<AsyncIterable<FeedEvent> | null> {
  const me = await guardAction('followRun');
  return (await liveFeed((await appContext()).runs, me.owner, runId, PAGE_LEAVE)) ?? null;
}

export async function listConversations(query?: string): Promise<ConversationSummary[]> {
  const me = await guardAction('listConversations');
  return (await appContext()).store.listConversations(me.owner, query?.trim() || undefined);
}

/** The version of the user's conversation list (lib/chat/list-version.ts): a page in view asks for it every few
 *  seconds, and reads the list and the open conversation again only when it changed. */
export async function conversationListVersion(): Promise<string> {
  const me = await guardAction('conversationListVersion');
  return listVersion(await (await appContext()).store.listConversations(me.owner));
}

export async function loadConversation(id: string): Promise<ActionResult<ConversationData>> {
  const me = await guardAction('loadConversation');
  return attempt((ctx) => ctx.chat.openConversation(me, id));
}

/** A turn's `n`th answer (1: its first), for switching between regenerated answers. */
export async function loadTurnAnswer(turnId: string, n: number): Promise<ActionResult<TurnAnswer>> {
  const me = await guardAction('loadTurnAnswer');
  return attempt((ctx) => ctx.chat.turnAnswer(me, String(turnId), Number(n)));
}

/** The conversation's title once the model has made it from the first exchange (the page asks after a first
 *  answer; the title never holds the answer back). */
export async function settledTitle(id: string): Promise<ActionResult<string>> {
  const me = await guardAction('settledTitle');
  return attempt((ctx) => ctx.chat.settledTitle(me, String(id)));
}

export async function renameConversation(id: string, title: string): Promise<ActionResult<null>> {
  const me = await guardAction('renameConversation');
  return attempt(async (ctx) => {
    const clean = title.trim();
    if (!clean) throw new CodedError('empty-title', 'A title cannot be empty.');
    await ctx.store.renameConversation(me.owner, id, clean.slice(0, 200));
    return null;
  });
}

export async function deleteConversation(id: string): Promise<ActionResult<null>> {
  const me = await guardAction('deleteConversation');
  return attempt(async (ctx) => {
    // Its runs stop first, so that none writes into it or its work directory meanwhile.
    await ctx.runs.stopConversation(me.owner, id);
    await ctx.uploads.deleteConversation(me.owner, id);
    return null;
  });
}

export async function saveSettings(
  id: string,
  settings: Partial<ConversationSettings>,
): Promise<ActionResult<ConversationSettings>> {
  const me = await guardAction('saveSettings');
  return attempt(async (ctx) => {
    // Checked as a message's settings are (a temperature of 99 is refused here, not by the model server later).
    const patch = parseRequest(SettingsPatchSchema, settings);
    return (await ctx.store.updateSettings(me.owner, id, patch)).settings;
  });
}

export async function appInfo(): Promise<AppInfo> {
  const me = await guardAction('appInfo');
  return describeApp(await appContext(), me);
}
