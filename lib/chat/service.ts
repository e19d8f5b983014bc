// The chat application's use cases, framework-free: send a message, regenerate, edit and resend, stop. Each run's
// events go to the store as they happen and to whoever follows the run live.
import { randomUUID } from 'node:crypto';
import { Assistant, FnCallAgent, ReActChat, foldEvents, type Agent, type Message } from '../agent';
import { withNewDocuments } from '../documents/attach';
import { parsesSettled } from '../documents/parsing';
import type { ResumeFrom } from '../agent/agent';
import { ToolDecisionSchema, type AgentEvent, type ToolDecision } from '../agent/events';
import { planReplay, ReplayRequestSchema, type ReplayRequest } from '../replay/plan';
import type { ContentItem, Lang } from '../llm/schema';
import { contentText } from '../llm/schema';
import { DEFAULT_TITLE, defaultSettings, mergeSettings } from '../store/settings';
import type { ChatStore, Conversation, ConversationSettings, StoredTurn } from '../store/types';
import { LiveRun } from './live-run';

export interface StartedRun {
  conversationId: string;
  turnId: string;
  runId: string;
  live: LiveRun;
}

/** `model` overrides the model name (a replay with another model); the endpoint stays the server's. */
export type AgentFactory = (settings: ConversationSettings, overrides?: { model?: string }) => Agent;

/** Runs in progress in this process, by run id (on globalThis: Next dev reloads modules, runs must survive it). */
const LIVE: Map<string, LiveRun> = ((
  globalThis as { __agentStudioLiveRuns?: Map<string, LiveRun> }
).__agentStudioLiveRuns ??= new Map());

export function defaultAgentFactory(settings: ConversationSettings, overrides: { model?: string } = {}): Agent {
  const Kind = settings.agent === 'react' ? ReActChat : settings.agent === 'assistant' ? Assistant : FnCallAgent;
  return new Kind({
    llm: { model: overrides.model, fncallMode: settings.fncallMode, generateCfg: settings.generateCfg },
    functionList: settings.tools,
    systemMessage: settings.systemMessage || undefined,
    name: 'assistant',
  });
}

const TITLE_LENGTH = 60;

export function titleFrom(content: string | ContentItem[]): string {
  const text = (typeof content === 'string' ? content : contentText(content)).replace(/\s+/g, ' ').trim();
  if (!text) return 'New chat';
  return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1)}…` : text;
}

export class ChatService {
  constructor(
    readonly store: ChatStore,
    private readonly makeAgent: AgentFactory = defaultAgentFactory,
  ) {}

  /** Waits for the conversation's uploads still being parsed, so that a message sent next carries them (call it
   *  before send or editAndResend). */
  async documentsSettled(conversationId: string | undefined): Promise<void> {
    if (conversationId) await parsesSettled(this.store, conversationId);
  }

  /** A new turn at the end of a conversation (a new conversation when none is given). */
  send(input: {
    conversationId?: string;
    content: string | ContentItem[];
    settings?: Partial<ConversationSettings>;
    /** The page's language: the agent's, unless the conversation's settings name one. */
    lang?: Lang;
  }): StartedRun {
    if (isEmpty(input.content)) throw new Error('The message is empty.');
    const existing = input.conversationId ? this.conversation(input.conversationId) : undefined;
    // A bad setting (an unknown tool) fails here, before anything is stored.
    const agent = this.makeAgent(mergeSettings(existing?.settings ?? defaultSettings(), input.settings ?? {}));
    let conversation = existing;
    if (!conversation)
      conversation = this.store.createConversation({ title: titleFrom(input.content), settings: input.settings });
    else if (input.settings) conversation = this.store.updateSettings(conversation.id, input.settings);
    const turns = this.store.listTurns(conversation.id);
    // A conversation created by an upload gets its title from its first message.
    if (!turns.length && conversation.title === DEFAULT_TITLE)
      this.store.renameConversation(conversation.id, titleFrom(input.content));
    const content = withNewDocuments(
      this.store,
      conversation.id,
      this.history(conversation.id, Infinity),
      input.content,
    );
    const turn = this.store.addTurn(conversation.id, content);
    return this.start(conversation, turn, agent, undefined, input.lang);
  }

  /** Another answer to an existing turn; later turns are dropped, since they followed the old answer. */
  regenerate(turnId: string, lang?: Lang): StartedRun {
    const turn = this.turn(turnId);
    const conversation = this.conversation(turn.conversationId);
    const agent = this.makeAgent(conversation.settings);
    this.store.deleteTurnsFrom(conversation.id, turn.seq + 1);
    return this.start(conversation, turn, agent, undefined, lang);
  }

  /** Replaces a user message (and everything after it) with a new one and answers it. */
  editAndResend(turnId: string, content: string | ContentItem[], lang?: Lang): StartedRun {
    if (isEmpty(content)) throw new Error('The message is empty.');
    const old = this.turn(turnId);
    const conversation = this.conversation(old.conversationId);
    const agent = this.makeAgent(conversation.settings);
    this.store.deleteTurnsFrom(conversation.id, old.seq);
    const turn = this.store.addTurn(
      conversation.id,
      withNewDocuments(this.store, conversation.id, this.history(conversation.id, old.seq), content),
    );
    return this.start(conversation, turn, agent, undefined, lang);
  }

  /**
   * Re-runs a stored run from iteration N as a new run of the same turn (the original stays), with another model,
   * other parameters, or edited tool results of the iterations before N. Later turns are dropped, as with
   * regenerate: they followed the old answer.
   */
  replay(runId: string, request: ReplayRequest): StartedRun {
    const parsed = ReplayRequestSchema.safeParse(request);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`Replay: ${issue.path.join('.') || 'request'}: ${issue.message}`);
    }
    const req = parsed.data;
    const stored = this.store.getRun(runId);
    if (!stored) throw new Error(`Run ${runId} does not exist.`);
    if (stored.status === 'running') throw new Error('This run is still going; replay it once it has ended.');
    const model = req.model?.trim() || undefined;
    const plan = planReplay(runId, this.store.getRunEvents(runId), { ...req, model });
    const turn = this.turn(stored.turnId);
    const conversation = this.conversation(turn.conversationId);
    // The original run's tools and call format, so the two runs differ only by what was asked.
    const settings = {
      ...conversation.settings,
      agent: 'fncall' as const,
      tools: plan.tools,
      fncallMode: plan.fncallMode ?? conversation.settings.fncallMode,
      generateCfg: { ...conversation.settings.generateCfg, ...req.generateCfg },
    };
    const agent = this.makeAgent(settings, { model });
    this.store.deleteTurnsFrom(conversation.id, turn.seq + 1);
    return this.start(conversation, turn, agent, {
      messages: plan.input,
      resume: { messages: plan.messages, events: plan.events, replay: plan.replay },
    });
  }

  /** The user's decision on a tool call a paused run waits on. */
  decideTool(runId: string, functionId: string, decision: unknown): void {
    const parsed = ToolDecisionSchema.safeParse(decision);
    if (!parsed.success) {
      throw new Error('A decision is {action: "run", arguments?}, {action: "skip"} or {action: "supply", content}.');
    }
    const live = LIVE.get(runId);
    if (!live) throw new Error('This run is not going any more.');
    if (!live.decide(functionId, parsed.data)) throw new Error(`This run is not waiting for tool call ${functionId}.`);
  }

  /** Every run of a turn with its events, oldest first (for comparing them). */
  runsOfTurn(turnId: string): { id: string; status: string; startedAt: number; events: AgentEvent[] }[] {
    this.turn(turnId);
    return this.store.listRuns(turnId).map((r) => ({ ...r, events: this.store.getRunEvents(r.id) }));
  }

  /** Stops a run in progress. False when it is not running in this process. */
  stop(runId: string): boolean {
    const live = LIVE.get(runId);
    if (!live) return false;
    live.stop();
    return true;
  }

  /** Stops every run of the conversation still going in this process, and resolves once each has ended (before the
   *  conversation is deleted, so no run writes into it or its work directory meanwhile). */
  async stopConversation(conversationId: string): Promise<void> {
    const runs = [...LIVE.values()].filter((live) => live.conversationId === conversationId);
    for (const live of runs) live.stop();
    await Promise.all(runs.map((live) => live.whenEnded()));
  }

  live(runId: string): LiveRun | undefined {
    return LIVE.get(runId);
  }

  /** The messages the model sees for a turn: every earlier turn with its latest answer, then this turn. */
  history(conversationId: string, beforeSeq: number): Message[] {
    const messages: Message[] = [];
    for (const record of this.store.listTurns(conversationId)) {
      if (record.turn.seq >= beforeSeq) break;
      messages.push({ role: 'user', content: record.turn.content });
      messages.push(...foldEvents(record.events));
    }
    return messages;
  }

  private start(
    conversation: Conversation,
    turn: StoredTurn,
    agent: Agent,
    from?: { messages: Message[]; resume: ResumeFrom },
    pageLang?: Lang,
  ): StartedRun {
    const runId = randomUUID();
    const messages = from?.messages ?? [
      ...this.history(conversation.id, turn.seq),
      { role: 'user' as const, content: turn.content },
    ];
    this.store.startRun(turn.id, runId);
    const live = new LiveRun(runId, conversation.id);
    LIVE.set(runId, live);
    void this.drive(agent, messages, live, conversation, from?.resume, pageLang);
    return { conversationId: conversation.id, turnId: turn.id, runId, live };
  }

  private async drive(
    agent: Agent,
    messages: Message[],
    live: LiveRun,
    conversation: Conversation,
    resume?: ResumeFrom,
    pageLang?: Lang,
  ): Promise<void> {
    const setLang = conversation.settings.lang;
    const lang = setLang && setLang !== 'auto' ? setLang : pageLang; // none: detected from the messages
    const beforeTool = conversation.settings.pauseBeforeTools
      ? (call: { functionId: string }): Promise<ToolDecision> => live.awaitDecision(call.functionId)
      : undefined;
    try {
      for await (const event of agent.runEvents(messages, {
        signal: live.controller.signal,
        runId: live.runId,
        conversationId: conversation.id,
        ...(lang ? { lang } : {}),
        ...(resume ? { resume } : {}),
        ...(beforeTool ? { beforeTool } : {}),
      })) {
        this.store.appendEvent(live.runId, event);
        if (event.type === 'run-end') this.store.finishRun(live.runId, event.reason, event.error);
        live.push(event);
      }
    } catch (e) {
      // The store failed (disk full, database closed): the run cannot be recorded; say so to the readers.
      const message = e instanceof Error ? e.message : String(e);
      live.push({
        type: 'run-end',
        runId: live.runId,
        iteration: 0,
        t: 0,
        reason: 'error',
        error: { name: 'StoreError', message },
        llmCalls: 0,
        toolCalls: 0,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        durationMs: 0,
      });
      try {
        this.store.finishRun(live.runId, 'error', { name: 'StoreError', message });
      } catch {
        // nothing more can be done; the run will read as interrupted at the next start
      }
    } finally {
      live.end();
      LIVE.delete(live.runId);
    }
  }

  private conversation(id: string): Conversation {
    const c = this.store.getConversation(id);
    if (!c) throw new Error(`Conversation ${id} does not exist.`);
    return c;
  }

  private turn(id: string): StoredTurn {
    const t = this.store.getTurn(id);
    if (!t) throw new Error(`Message ${id} does not exist.`);
    return t;
  }
}

function isEmpty(content: string | ContentItem[]): boolean {
  return typeof content === 'string' ? !content.trim() : content.length === 0;
}
