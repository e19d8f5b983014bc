'use client';
// The page's one store: conversations, the open thread, and the run being streamed. Events are folded with
// lib/chat/view (the same fold the tests run in Node); only the blocks an event changed get new objects, so React
// re-renders just the growing part.
import { create } from 'zustand';
import * as actions from '@/app/actions/chat';
import type { ActionResult, ConversationData, RunStream } from '@/lib/chat/page';
import type { FeedEvent } from '@/lib/protocol/events';
import { continueRun, replayRun } from '@/app/actions/replay';
import type { ReplayRequest } from '@/lib/replay/plan';
import { applyEvent, emptyRun, foldRun, markInterrupted, RUN_CHANGED, type Block, type RunView } from '@/lib/chat/view';
import type { ConversationSettings, ConversationSummary, SavedAgent } from '@/lib/store/types';
import type { ContentItem } from '@/lib/llm/schema';
import { draftKey, forgetDraft } from './composer-draft';
import { rememberChoice } from './new-chat-defaults';
import { nextHttpError, reachServer, unanswered } from './reach-server';
import { failureText, type CodedText } from './server-text';

/** What a new chat shows of its saved agent before its first message. */
export type DraftAgent = Pick<SavedAgent, 'id' | 'name' | 'avatar' | 'description' | 'suggestions'>;

export interface TurnState {
  turnId: string;
  seq: number;
  content: string | ContentItem[];
  run?: RunView;
  runCount: number;
  /** Which answer is shown (1: the first run), when it is not the latest: regenerated answers stay reachable. */
  shown?: number;
}

interface ChatState {
  conversations: ConversationSummary[];
  query: string;
  activeId?: string;
  title: string;
  settings?: ConversationSettings;
  turns: TurnState[];
  runningRunId?: string;
  /** The saved agent a new chat talks to (chosen on the Agents list); its first message saves it in the settings. */
  draftAgent?: DraftAgent;
  /** The agent a new chat talks to when none is chosen (the one `npm run serve` serves). */
  defaultAgent?: DraftAgent;
  /** A failure of the page's own requests (not of a run: those show in the thread), said with its code if it has one. */
  notice?: CodedText;
  /** An Edit the server refused: its message opens its edit box again with the edited text (the notice says why),
   *  and takes it from here. */
  refusedEdit?: { turnId: string; text: string };
  /** Whose model and tools choices new chats start with (new-chat-defaults.ts): the signed-in user. */
  chooser?: string;
  /** The conversation the new chat became where it was (its first message or an upload made it), until the page
   *  moves to another: the composer's draft goes with it. */
  fromNewChat?: string;
  /** The conversation being opened (by its address, or from the list) until it is in: a message sent meanwhile goes
   *  to it, once it is. */
  opening?: string;
  /** A message sent while a conversation was being opened, waiting for it. */
  heldForOpen?: boolean;
  /** The conversation asked for last whose load got no answer (the sign-in gone, the server unreachable): the page
   *  shows what it showed, but its address goes on naming this one, so that signing in again or a reload opens it. */
  unreached?: string;

  refreshConversations(): Promise<void>;
  search(query: string): Promise<void>;
  /** A new conversation, with a saved agent when one is given. */
  newChat(agent?: DraftAgent): void;
  /** `newChatIfGone`: when it cannot be opened (deleted), the page shows a new chat (with the notice) rather than
   *  what it showed: it was asked for by an address (the page's own, Back or Forward), which now names nothing. */
  open(id: string, options?: { newChatIfGone?: boolean }): Promise<void>;
  /** Shows what another tab or window changed since this page read it: the list of conversations (with `readList`,
   *  the default unless `force`), and what was added to the open conversation (a message, an answer still going,
   *  which it then follows, without waiting for its end here). Without `force`, the conversation is read again only
   *  when the list says it changed. Resolves false when the open conversation could not be checked now (an answer
   *  streams here, a conversation is being opened, the page moved on meanwhile): a later call checks it. */
  catchUp(force?: boolean, readList?: boolean): Promise<boolean>;
  /** Resolves false when the message was not taken (a run is going, or the server refused it: the notice says why). */
  send(text: string): Promise<boolean>;
  stop(): Promise<void>;
  retry(turnId: string): Promise<void>;
  regenerate(turnId: string): Promise<void>;
  /** Shows the turn's `n`th answer (1: its first run). */
  showAnswer(turnId: string, n: number): Promise<void>;
  editAndResend(turnId: string, text: string): Promise<void>;
  /** Continues a run that stopped at the model-call limit, as a new run of its turn. */
  continueRun(turnId: string, runId: string): Promise<void>;
  /** Replays a stored run from an iteration as a new run of its turn; resolves with why, if it was not started. */
  replay(runId: string, req: ReplayRequest): Promise<CodedText | undefined>;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
  updateSettings(patch: Partial<ConversationSettings>): Promise<void>;
  setDraftSettings(settings: ConversationSettings): void;
  dismissNotice(): void;
}

/** Runs whose stream this page is reading; a newer one replaces an older one. */
let streamToken = 0;

/** Bumped by everything that changes the thread's turns (a run started, a conversation opened, a new chat): a catch-up
 *  read before one of them is not shown. */
let threadChanges = 0;

/** The open conversation as this page last read it (its `updatedAt`): the list tells whether it changed since. */
let seen: { id: string; updatedAt: number } | undefined;

/** A catch-up in flight: focus and visibility come together, one read does. */
let catchingUp: Promise<boolean> | undefined;

/** The open conversation found deleted elsewhere by a catch-up: said once, not read again. */
let gone: string | undefined;

/** The open conversation whose answer still going could not be followed (the server did not answer): the next
 *  catch-up reads it again and follows it. */
let unfollowed: string | undefined;

/** The save of the settings in flight, if any: a message sent meanwhile waits for it. */
let settingsSaving: Promise<unknown> | undefined;

/** The load of the conversation being opened (the latest open; an earlier one still loading is dropped when it
 *  comes in): a message sent meanwhile waits until it is `done`, then goes to it. */
interface Opening {
  id: string;
  done: Promise<void>;
  settle(): void;
}
let opening: Opening | undefined;

/** The page moves on from the conversation being opened (to a new chat, or another): a message waiting for it
 *  stops waiting (it goes back to the composer) and its load, when it comes in, is not shown. */
function leaveOpening(): void {
  opening?.settle();
  opening = undefined;
}

/**
 * Sends a run's request, then draws what the page shows until its stream starts (the user's message, a pending
 * answer). Next sends an action's request a microtask after the call, so a render in the same task (the keydown's)
 * held the request back by the whole thread's render; drawn in the next task, it still makes the next frame.
 */
async function sendThenDraw<T>(request: () => Promise<ActionResult<T>>, draw: () => void): Promise<ActionResult<T>> {
  threadChanges++;
  // A setting changed just before (a temperature typed, then Enter) is saved first: the run reads it from the store.
  // A request the server never answers is a failure like a refusal: what was drawn for it is taken back.
  const saving = settingsSaving;
  const sending = reachServer(() => (saving ? saving.then(request) : request()));
  await new Promise<void>((drawn) =>
    setTimeout(() => {
      draw();
      drawn();
    }),
  );
  return sending;
}

export const useChat = create<ChatState>()((set, get) => {
  /** Reads a run's events into the turn, batching updates per animation frame to keep long answers smooth. */
  async function consume(turnId: string, runId: string, events: AsyncIterable<FeedEvent>): Promise<void> {
    const token = ++streamToken;
    threadChanges++;
    const view = emptyRun(runId);
    set({ runningRunId: runId });
    setRun(turnId, view);
    let pending = new Set<string>();
    let frame: number | undefined;
    const flush = () => {
      frame = undefined;
      if (token !== streamToken || !pending.size) return;
      const changed = pending;
      pending = new Set();
      setRun(turnId, view, changed);
    };
    try {
      for await (const e of events) {
        if (token !== streamToken) return;
        for (const id of applyEvent(view, e)) pending.add(id);
        // Reading progress is the run's, not a block's: the run is drawn again with its blocks as they were.
        if (e.type === 'progress') pending.add(RUN_CHANGED);
        if (e.type === 'run-end' || e.type === 'tool-call' || e.type === 'tool-result') pending.add('*');
        frame ??= requestAnimationFrame(flush);
      }
      // A feed that ends without the run's end was cut off: the run was marked interrupted (its instance died or
      // shut down), and what arrived is what was kept.
      if (token === streamToken) markInterrupted(view);
    } catch (e) {
      // The connection to the server broke (server killed, network gone): keep what arrived and say so.
      if (view.status === 'streaming') {
        markInterrupted(view);
        set({ notice: { code: 'connection-lost', values: { error: e instanceof Error ? e.message : String(e) } } });
      }
    } finally {
      if (frame !== undefined) cancelAnimationFrame(frame);
      if (token === streamToken) {
        setRun(turnId, view, new Set(['*']));
        set({ runningRunId: undefined });
        void get().refreshConversations();
      }
    }
  }

  /** Puts a new RunView object in the turn; blocks whose ids changed get new objects (the rest keep identity). */
  function setRun(turnId: string, view: RunView, changed?: Set<string>) {
    set((state) => ({
      turns: state.turns.map((t) => {
        if (t.turnId !== turnId) return t;
        const prev = t.run;
        const blocks: Block[] = view.blocks.map((b) => {
          const old = prev?.blocks.find((p) => p.id === b.id);
          return !old || !changed || changed.has('*') || changed.has(b.id) ? { ...b } : old;
        });
        return { ...t, run: { ...view, blocks } };
      }),
    }));
  }

  /** A turn about to get another run (regenerate, replay): later turns go, its run shows as pending. */
  function awaitNewRun(turnId: string) {
    set((s) => {
      const index = s.turns.findIndex((t) => t.turnId === turnId);
      return {
        turns: s.turns
          .slice(0, index + 1)
          .map((t) =>
            t.turnId === turnId ? { ...t, run: emptyRun('pending'), runCount: t.runCount + 1, shown: undefined } : t,
          ),
      };
    });
  }

  /** `before`: the turns as they were before the request drew its message or pending answer, shown again when the
   *  server refuses it (a regenerated answer or an edited message is not lost from the page then). */
  async function startStream(
    result: ActionResult<RunStream>,
    placeholder: TurnState | undefined,
    before: TurnState[],
    refused: Pick<ChatState, 'refusedEdit'> = {},
  ) {
    if (!result.ok) {
      set({ notice: failureText(result), turns: before, ...refused });
      // Another tab or window is answering in this conversation: show its message, and follow its answer here.
      if (result.code === 'conversation-busy') void get().catchUp(true);
      return;
    }
    const { conversationId, turnId, runId, events, content } = result.value;
    if (get().activeId !== conversationId) {
      set({
        activeId: conversationId,
        fromNewChat: get().activeId === undefined ? conversationId : undefined,
        unreached: undefined,
      });
      // The list and the new conversation's title arrive beside the stream, not before it: a round trip here
      // delayed the first token of every new conversation.
      void get()
        .refreshConversations()
        .then(() => {
          const created = get().conversations.find((c) => c.id === conversationId);
          if (created && get().activeId === conversationId) set({ title: created.title });
        });
    }
    set((s) => ({
      turns: s.turns.map((t) => (t === placeholder ? { ...t, turnId, ...(content ? { content } : {}) } : t)),
    }));
    const first = get().turns[0]?.turnId === turnId;
    await consume(turnId, runId, events);
    // The model titles a conversation from its first exchange once the answer is in: show it when it is made.
    if (first) void showTitle(conversationId);
  }

  /** Follows the conversation's last run when it is still going on the server (the page reloaded mid-answer, or
   *  another tab's answer), from its start. */
  async function followLatest(id: string, data: ConversationData) {
    const last = data.turns[data.turns.length - 1];
    if (!last?.runId || last.runStatus !== 'running') return;
    // Unanswered (the server down for a moment): the answer stays as it was read, and the next catch-up follows it.
    const unreached = () => {
      if (get().activeId === id) unfollowed = id;
    };
    const followed = await actions.followRun(last.runId).then((events) => ({ events }), unreached);
    if (!followed) return;
    if (followed.events) await consume(last.turn.id, last.runId, followed.events);
    else {
      // It ended between the two reads (or nothing drives it any more): shown as it is stored now, not as the
      // half answer read first, streaming for ever.
      const answer = await actions.loadTurnAnswer(last.turn.id, last.runCount).catch(unreached);
      if (!answer?.ok || get().activeId !== id || get().runningRunId) return;
      const run = foldStored(answer.value.runId, answer.value.events, answer.value.runStatus);
      markInterrupted(run); // only a run still reading as streaming: its feed is over
      set((s) => ({ turns: s.turns.map((t) => (t.turnId === last.turn.id ? { ...t, run } : t)) }));
    }
  }

  async function showTitle(conversationId: string) {
    // Unanswered, the title shown stays: the list's next read brings the new one.
    const result = await actions.settledTitle(conversationId).catch(() => undefined);
    if (!result?.ok) return;
    if (get().activeId === conversationId) set({ title: result.value });
    await get().refreshConversations();
  }

  return {
    conversations: [],
    query: '',
    title: 'New chat',
    turns: [],

    async refreshConversations() {
      // Read in the background (and every few seconds by an idle window): unanswered, the list stays as it was.
      const conversations = await actions.listConversations(get().query).catch(() => undefined);
      if (conversations) set({ conversations });
    },

    async search(query) {
      set({ query });
      const result = await reachServer(async () => ({ ok: true, value: await actions.listConversations(query) }));
      if (get().query !== query) return;
      if (result.ok) set({ conversations: result.value });
      else set({ notice: failureText(result) });
    },

    newChat(chosen) {
      streamToken++;
      threadChanges++;
      leaveOpening();
      const agent = chosen ?? get().defaultAgent;
      // A saved agent's conversation runs on the agent's model (or the server's) until the picker names another.
      const settings = get().settings;
      const draftSettings = agent && settings?.model ? { ...settings, model: undefined } : settings;
      set({
        activeId: undefined,
        title: 'New chat',
        turns: [],
        runningRunId: undefined,
        draftAgent: agent,
        settings: draftSettings,
        fromNewChat: undefined,
        opening: undefined,
        unreached: undefined,
      });
    },

    async open(id, { newChatIfGone = false } = {}) {
      streamToken++;
      threadChanges++;
      leaveOpening();
      let settle!: () => void;
      const done = new Promise<void>((resolve) => (settle = resolve));
      const load: Opening = { id, done, settle };
      opening = load;
      set({ fromNewChat: undefined, opening: id, unreached: undefined });
      /** Ends this load: what it shows (its turns, or why it could not) only while the page still waits for it. */
      const end = (shown: Partial<ChatState>) => {
        if (opening === load) {
          opening = undefined;
          set({ ...shown, opening: undefined });
        }
        settle();
      };
      let result: Awaited<ReturnType<typeof actions.loadConversation>>;
      try {
        result = await actions.loadConversation(id);
      } catch (e) {
        end({ unreached: id, ...(nextHttpError(e) ? {} : { notice: failureText(unanswered(e)) }) });
        if (nextHttpError(e)) throw e; // the session gone: Next shows its page
        return;
      }
      if (opening !== load) return end({}); // the page moved on meanwhile (another conversation, a new chat)
      if (!result.ok) {
        end({ notice: failureText(result) });
        if (newChatIfGone && result.status === 404 && get().activeId !== undefined) get().newChat();
        return;
      }
      const data = result.value;
      seen = { id, updatedAt: data.updatedAt };
      end({
        activeId: id,
        title: data.title,
        settings: data.settings,
        turns: turnsOf(data),
        runningRunId: undefined,
        draftAgent: undefined,
      });
      // A run still going on the server (the page was reloaded mid-answer): follow it from its start.
      await followLatest(id, data);
    },

    async catchUp(force = false, readList = !force) {
      if (catchingUp) return catchingUp;
      const check = async (): Promise<boolean> => {
        const id = get().activeId;
        const busy = () =>
          get().activeId !== id || get().runningRunId !== undefined || opening !== undefined || get().heldForOpen;
        const mark = threadChanges;
        // An answer going on that could not be followed is read again, whatever the list says.
        const refollow = unfollowed !== undefined && unfollowed === id;
        // The list whatever the thread is doing: another tab may have started, renamed or deleted conversations.
        if (readList) await get().refreshConversations();
        if (!id || id === gone) return true;
        if (busy()) return false;
        if (!force && !refollow) {
          // A conversation the list shows unchanged since this page read it is not read again.
          const listed = get().conversations.find((c) => c.id === id);
          if (listed && seen?.id === id && listed.updatedAt <= seen.updatedAt) return true;
        }
        // Unanswered (the server down for a moment): the next catch-up reads it again.
        const result = await actions.loadConversation(id).catch(() => undefined);
        if (!result || busy() || threadChanges !== mark) return false;
        if (!result.ok) {
          if (result.code === 'conversation-gone') gone = id; // deleted elsewhere: the thread stays, with why
          set({ notice: failureText(result) });
          return true;
        }
        const data = result.value;
        seen = { id, updatedAt: data.updatedAt };
        // This page's own messages and answers changed it too: redrawn only when it holds something this page lacks.
        const turns = turnsOf(data);
        const shape = (list: TurnState[]) => list.map((t) => `${t.turnId}:${t.runCount}`).join(' ');
        if (unfollowed === id) unfollowed = undefined;
        if (!refollow && shape(turns) === shape(get().turns)) return true;
        threadChanges++;
        set({ title: data.title, settings: data.settings, turns });
        // Followed on from here: a catch-up that comes meanwhile finds the conversation as `seen` says, or busy.
        void followLatest(id, data);
        return true;
      };
      catchingUp = check().finally(() => (catchingUp = undefined));
      return catchingUp;
    },

    async send(text) {
      const message = text.trim();
      if (!message || get().runningRunId || get().heldForOpen) return false;
      // Sent while a conversation is being opened (by its address, or from the list): it goes to that one, once it
      // is in, not to the new chat or the conversation still shown meanwhile.
      const load = opening;
      if (load) {
        set({ heldForOpen: true });
        await load.done;
        set({ heldForOpen: false });
        // Not opened (the notice says why), or the page moved on meanwhile: the message goes back to the composer.
        if (get().activeId !== load.id || get().runningRunId) return false;
      }
      const placeholder: TurnState = {
        turnId: `pending-${Date.now()}`,
        seq: get().turns.length,
        content: message,
        runCount: 1,
        run: emptyRun('pending'),
      };
      const { activeId, settings, draftAgent, turns: before } = get();
      const result = await sendThenDraw(
        () =>
          actions.sendMessage({
            conversationId: activeId,
            message,
            settings: activeId
              ? undefined
              : settings && (draftAgent ? { ...settings, agentId: draftAgent.id } : settings),
          }),
        () => set((s) => ({ turns: [...s.turns, placeholder] })),
      );
      // The new conversation's settings name its agent, as the server stored them: the header and the settings go on
      // showing the agent's (its model, its prompt), not the server's defaults.
      if (!activeId && result.ok)
        set((s) => ({
          draftAgent: undefined,
          settings: draftAgent && s.settings ? { ...s.settings, agentId: draftAgent.id } : s.settings,
        }));
      await startStream(result, placeholder, before);
      return result.ok;
    },

    async stop() {
      const runId = get().runningRunId;
      if (!runId) return;
      const result = await reachServer(async () => ({ ok: true, value: await actions.stopRun(runId) }));
      if (!result.ok) set({ notice: failureText(result) });
    },

    async retry(turnId) {
      await get().regenerate(turnId);
    },

    async regenerate(turnId) {
      if (get().runningRunId) return;
      const before = get().turns;
      const result = await sendThenDraw(
        () => actions.regenerate(turnId),
        () => awaitNewRun(turnId),
      );
      await startStream(result, undefined, before);
    },

    async showAnswer(turnId, n) {
      if (get().runningRunId) return;
      const activeId = get().activeId;
      const result = await reachServer(() => actions.loadTurnAnswer(turnId, n));
      if (!result.ok) {
        set({ notice: failureText(result) });
        return;
      }
      if (get().activeId !== activeId || get().runningRunId) return; // the page moved on meanwhile
      const answer = result.value;
      const run = foldStored(answer.runId, answer.events, answer.runStatus);
      set((s) => ({
        turns: s.turns.map((t) =>
          t.turnId === turnId
            ? { ...t, run, runCount: answer.count, shown: answer.n < answer.count ? answer.n : undefined }
            : t,
        ),
      }));
    },

    async editAndResend(turnId, text) {
      const message = text.trim();
      if (!message || get().runningRunId) return;
      const index = get().turns.findIndex((t) => t.turnId === turnId);
      const placeholder: TurnState = {
        turnId: `pending-${Date.now()}`,
        seq: index,
        content: message,
        runCount: 1,
        run: emptyRun('pending'),
      };
      const before = get().turns;
      const result = await sendThenDraw(
        () => actions.editAndResend(turnId, message),
        () => set((s) => ({ turns: [...s.turns.slice(0, index), placeholder] })),
      );
      await startStream(result, placeholder, before, { refusedEdit: { turnId, text } });
    },

    async continueRun(turnId, runId) {
      if (get().runningRunId) return;
      const before = get().turns;
      const result = await sendThenDraw(
        () => continueRun(runId),
        () => awaitNewRun(turnId),
      );
      await startStream(result, undefined, before);
    },

    async replay(runId, req) {
      if (get().runningRunId) return { message: 'Wait for the current run to end.' };
      const result = await reachServer(() => replayRun(runId, req));
      if (!result.ok) return failureText(result);
      const { turnId } = result.value;
      awaitNewRun(turnId);
      void startStream(result, undefined, get().turns);
      return undefined;
    },

    async rename(id, title) {
      const result = await reachServer(() => actions.renameConversation(id, title));
      if (!result.ok) set({ notice: failureText(result) });
      if (get().activeId === id && result.ok) set({ title: title.trim() });
      await get().refreshConversations();
    },

    async remove(id) {
      const result = await reachServer(() => actions.deleteConversation(id));
      if (!result.ok) set({ notice: failureText(result) });
      const gone = result.ok || result.status === 404; // deleted here, or already in another tab
      if (!gone) return;
      forgetDraft(draftKey(get().chooser, id)); // its draft goes with it
      if (get().activeId === id || get().opening === id) get().newChat();
      await get().refreshConversations();
    },

    async updateSettings(patch) {
      const current = get().settings;
      if (!current) return;
      const next = { ...current, ...patch };
      set({ settings: next });
      // The model and tools chosen outside a saved agent's conversation are the next new chat's.
      const { chooser, draftAgent } = get();
      if (chooser && !current.agentId && !(draftAgent && !get().activeId)) rememberChoice(chooser, patch);
      const id = get().activeId;
      if (!id) return; // a new chat keeps them until its first message
      const saving = reachServer(() => actions.saveSettings(id, patch));
      const settled = saving.catch(() => undefined);
      settingsSaving = settled;
      void settled.then(() => {
        if (settingsSaving === settled) settingsSaving = undefined;
      });
      const result = await saving;
      if (!result.ok) set({ notice: failureText(result), settings: current });
    },

    setDraftSettings(settings) {
      set({ settings });
    },

    dismissNotice() {
      set({ notice: undefined });
    },
  };
});

function turnsOf(data: ConversationData): TurnState[] {
  return data.turns.map((t) => ({
    turnId: t.turn.id,
    seq: t.turn.seq,
    content: t.turn.content,
    runCount: t.runCount,
    run: t.runId ? foldStored(t.runId, t.events, t.runStatus) : undefined,
  }));
}

function foldStored(runId: string, events: FeedEvent[], status: string | undefined): RunView {
  const view = foldRun(runId, events);
  if (status === 'interrupted') markInterrupted(view);
  return view;
}
