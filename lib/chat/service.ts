// The chat application's use cases, framework-free: send a message, regenerate, edit and resend, replay, stop,
// decide a paused tool call, open a conversation. Every run starts by one path (start): its tools registered, the
// conversation's uploads parsed, its documents attached, its agent chosen; then its events go to the store as they
// happen, and on to whoever follows the run once stored. Every use case acts for an Actor (actor.ts): the store and
// the runs in progress see only its objects, and its tools are checked against what the admin allows.
import { randomUUID } from 'node:crypto';
import {
  HumanSimulator,
  SIMULATED_USER_STOP,
  swapRoles,
  type Agent,
  type GenerateCfg,
  type Message,
  type RunOptions,
} from '../agent';
import type { ImageLimits } from '../documents/image';
import type { ContentItem, FunctionDef, Lang } from '../llm/schema';
import { contentText } from '../llm/schema';
import { ToolDecisionSchema, type AgentEvent } from '../protocol/events';
import { planReplay, ReplayRequestSchema, type ReplayPlan, type ReplayRequest } from '../replay/plan';
import { replayEvents } from '../replay/resume';
import type { ByteBudget } from '../http/rate-limit';
import { mergeSettings } from '../protocol/conversation-settings';
import { CodedError } from '../protocol/errors';
import { ConversationBusyError, NotFoundError } from '../store/errors';
import type { OwnerScope } from '../store/owner';
import {
  DEFAULT_TITLE,
  type AgentStore,
  type ChatStore,
  type Conversation,
  type ConversationSettings,
  type HistoryTurn,
  type StoredTurn,
} from '../store/types';
import { withNewDocuments } from '../uploads/attach';
import { attachmentItems } from '../uploads/attachments';
import type { ParseJobs } from '../uploads/parsing';
import type { Actor } from './actor';
import { toolsRunBy, type AgentFactory } from './agents';
import { conversationHasDocuments, withDocumentTools } from './document-tools';
import { refuseUnknownTools } from './missing-tools';
import { refuseWhenStorageSpent } from './run-storage';
import { resolveAgent, type ResolvedAgent } from './saved-agents';
import { storedFeed } from './feed';
import { modelTitle, TITLE_TIMEOUT_MS } from './titles';
import type { LiveRuns, RunWriter } from './live-runs';
import type { ConversationData, TurnAnswer } from './page';
import {
  EditRequestSchema,
  parseRequest,
  RegenerateRequestSchema,
  RequestError,
  SendRequestSchema,
  SimulateRequestSchema,
  type SendRequest,
} from './requests';

export interface StartedRun {
  conversationId: string;
  turnId: string;
  runId: string;
  /** The user message as stored: with the documents and images it carries (the page shows them on the turn). */
  content: string | ContentItem[];
}

/** A simulated user's next line, or its word that the conversation is over. */
export type SimulatedTurn = { message: string } | { stop: true };

export interface ChatServiceDeps {
  store: ChatStore;
  /** The runs in progress: started here, followed by the page and POST /api/chat. */
  runs: LiveRuns;
  /** The agent for a conversation's settings. */
  agents: AgentFactory;
  /** Settings of a conversation made without any (the server's defaults). */
  defaultSettings: () => ConversationSettings;
  /** Where uploads are kept (DATA_DIR): a message's `files` must be there. */
  dataDir: string;
  /** How large an image a message's `files` may name (as uploads are checked). */
  images: ImageLimits;
  /** The uploads being parsed: a message waits for its conversation's. */
  parses?: ParseJobs;
  /** Where a conversation's agent id is looked up: the store's saved agents, and the plugins' (lib/plugins). */
  agentCatalog?: Pick<AgentStore, 'getAgent'>;
  /** Makes the named tools available before an agent takes them (MCP servers' tools, plugins' tools). */
  prepareTools?: (names: readonly string[]) => Promise<unknown>;
  /** How a new conversation is titled (CONVERSATION_TITLES): by its model from the first exchange, or by its first
   *  message (the default here). */
  titles?: 'model' | 'message';
  /** Each owner's allowance of stored run events (RUN_BYTES_PER_DAY): no run starts while it is spent. */
  runStorage?: ByteBudget;
}

/** How a run comes about: what becomes of the conversation, and what the agent is given. */
type RunPlan =
  | { kind: 'turn'; conversation: Conversation; opening: Opening; history: Message[]; pageLang?: Lang }
  | {
      kind: 'messages';
      conversation: Conversation;
      opening: Opening;
      input: Message[];
      clientTools?: FunctionDef[];
      /** The request's own run options (an OpenAI client's tool_choice, stop, response_format…), not stored. */
      run?: MessagesRunOptions;
    }
  | { kind: 'replay'; conversation: Conversation; opening: Opening; plan: ReplayPlan; model?: string };

/** What the store keeps as the run starts, in the one transaction that starts it (all or nothing): a new user
 *  message (`replacing`: the seq of the turn it replaces, dropped with the later ones), or another answer to a
 *  stored turn (`dropLater`: the turns after it go, since they followed the old answer). */
type Opening =
  | { content: string | ContentItem[]; replacing?: number; settings?: Partial<ConversationSettings> }
  | { turn: StoredTurn; dropLater?: boolean };

/** What a whole-conversation request (lib/openai-api) sets for its run only. */
export interface MessagesRunOptions {
  toolChoice?: RunOptions['toolChoice'];
  generateCfg?: GenerateCfg;
}

const TITLE_LENGTH = 60;

/** A tool the actor may not use (the admin has not enabled it for users): HTTP 403. */
export class ToolNotAllowedError extends CodedError {
  override name = 'ToolNotAllowedError';
  constructor(tool: string, message: string) {
    super('tool-not-enabled', message, { name: tool }, 403);
  }
}

export function titleFrom(content: string | ContentItem[]): string {
  const text = (typeof content === 'string' ? content : contentText(content)).replace(/\s+/g, ' ').trim();
  if (!text) return 'New chat';
  return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1)}…` : text;
}

export class ChatService {
  readonly store: ChatStore;
  readonly runs: LiveRuns;
  /** The titles being made, by conversation id (this process's). */
  private readonly titling = new Map<string, Promise<void>>();
  /** Conversations a new run of which is being started in this process (until it is in `runs`). */
  private readonly starting = new Set<string>();

  constructor(private readonly deps: ChatServiceDeps) {
    this.store = deps.store;
    this.runs = deps.runs;
  }

  /** A new turn at the end of a conversation (a new conversation when none is given). */
  async send(actor: Actor, request: SendRequest): Promise<StartedRun> {
    const { owner } = actor;
    const req = parseRequest(SendRequestSchema, request);
    const files = req.files?.length
      ? await attachmentItems(req.files, this.store, owner, this.deps.dataDir, this.deps.images)
      : [];
    const content: string | ContentItem[] = files.length ? [{ text: req.message }, ...files] : req.message;
    const existing = req.conversationId ? await this.conversation(owner, req.conversationId) : undefined;
    const go = async () => {
      // Read once: every run begins with its conversation's whole history, which grows with every answer.
      const turns = existing ? await this.store.listHistory(owner, existing.id) : [];
      const settings = mergeSettings(existing?.settings ?? this.deps.defaultSettings(), req.settings);
      // A bad setting (an unknown tool, or one the actor may not use) fails here, before anything is stored.
      const agent = await this.agentFor(
        actor,
        await this.runSettings(
          owner,
          settings,
          existing && { id: existing.id, turns },
          files.some((f) => f.file),
        ),
        existing?.id,
      );
      // An existing conversation's new settings are saved with the message, so a message refused (another instance's
      // run got there first) changes nothing.
      const conversation = existing
        ? { ...existing, settings }
        : await this.store.createConversation(owner, { title: titleFrom(content), settings: req.settings });
      // A conversation created by an upload gets its title from its first message.
      if (!turns.length && conversation.title === DEFAULT_TITLE)
        await this.store.renameConversation(owner, conversation.id, titleFrom(content));
      const history = historyOf(turns, Infinity);
      const opening = {
        content: await this.carried(owner, conversation.id, history, content),
        settings: existing && req.settings,
      };
      const started = this.start(owner, agent, { kind: 'turn', conversation, opening, history, pageLang: req.lang });
      return existing ? started : this.orDropped(owner, conversation.id, started);
    };
    return existing ? this.oneAtATime(owner, existing.id, go) : go();
  }

  /**
   * A run on a whole conversation the caller holds (an OpenAI client's `messages`, lib/openai-api), stored as a new
   * conversation of one turn (its last user message) so that it shows in the page and the inspector like any run.
   * `clientTools`: the caller's own tools (RunOptions.clientTools); `run`: options for this run only; `check`: refuses
   * a request the agent cannot honour (it throws), before anything is stored.
   */
  async sendMessages(
    actor: Actor,
    request: {
      settings: Partial<ConversationSettings>;
      messages: Message[];
      title: string;
      clientTools?: FunctionDef[];
      run?: MessagesRunOptions;
      check?: (agent: Agent) => void;
    },
  ): Promise<StartedRun> {
    const { owner } = actor;
    const settings = mergeSettings(this.deps.defaultSettings(), request.settings);
    const agent = await this.agentFor(actor, settings);
    request.check?.(agent);
    const lastUser = request.messages.findLast((m) => m.role === 'user');
    const conversation = await this.store.createConversation(owner, {
      title: request.title,
      settings: request.settings,
    });
    const opening = { content: lastUser?.content ?? '' };
    const plan: RunPlan = { kind: 'messages', conversation, opening, input: request.messages };
    if (request.clientTools?.length) plan.clientTools = request.clientTools;
    if (request.run) plan.run = request.run;
    return this.orDropped(owner, conversation.id, this.start(owner, agent, plan));
  }

  /** Another answer to an existing turn; later turns are dropped, since they followed the old answer. `lang` is the
   *  page's language (as in send). */
  async regenerate(actor: Actor, turnId: string, lang?: Lang): Promise<StartedRun> {
    const { owner } = actor;
    const pageLang = parseRequest(RegenerateRequestSchema, { turnId, lang }).lang;
    const turn = await this.turn(owner, turnId);
    const conversation = await this.conversation(owner, turn.conversationId);
    return this.oneAtATime(owner, conversation.id, async () => {
      const turns = await this.store.listHistory(owner, conversation.id);
      const agent = await this.agentFor(
        actor,
        await this.runSettings(owner, conversation.settings, { id: conversation.id, turns }),
      );
      const history = historyOf(turns, turn.seq);
      const opening = { turn, dropLater: true };
      return this.start(owner, agent, { kind: 'turn', conversation, opening, history, pageLang });
    });
  }

  /** Replaces a user message (and everything after it) with a new one and answers it. */
  async editAndResend(actor: Actor, turnId: string, message: string, lang?: Lang): Promise<StartedRun> {
    const { owner } = actor;
    const req = parseRequest(EditRequestSchema, { turnId, message, lang });
    const old = await this.turn(owner, req.turnId);
    const conversation = await this.conversation(owner, old.conversationId);
    return this.oneAtATime(owner, conversation.id, async () => {
      const turns = await this.store.listHistory(owner, conversation.id);
      const agent = await this.agentFor(
        actor,
        await this.runSettings(owner, conversation.settings, { id: conversation.id, turns }),
        conversation.id,
      );
      const history = historyOf(turns, old.seq);
      const content = await this.carried(owner, conversation.id, history, req.message);
      const opening = { content, replacing: old.seq };
      return this.start(owner, agent, { kind: 'turn', conversation, opening, history, pageLang: req.lang });
    });
  }

  /**
   * Re-runs a stored run from iteration N as a new run of the same turn (the original stays), with another model,
   * other parameters, or edited tool results of the iterations before N. Later turns are dropped, as with
   * regenerate: they followed the old answer.
   */
  async replay(actor: Actor, runId: string, request: ReplayRequest): Promise<StartedRun> {
    const parsed = ReplayRequestSchema.safeParse(request);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new RequestError(`Replay: ${issue.path.join('.') || 'request'}: ${issue.message}`);
    }
    return this.rerun(actor, runId, parsed.data);
  }

  /**
   * Continue: a run that stopped at the model-call limit goes on from the iteration after its last one, as a new run
   * of the same turn (a replay of all its iterations) with the limit's worth of model calls more. Later turns are
   * dropped, as with regenerate.
   */
  async continueRun(actor: Actor, runId: string): Promise<StartedRun> {
    const log = await this.store.getRunEvents(actor.owner, runId);
    const iterations = log.filter((e) => e.type === 'llm-start').length;
    return this.rerun(actor, runId, { fromIteration: iterations + 1 }, log);
  }

  /** A replay, or with `continued` (the run's log) a continuation. */
  private async rerun(actor: Actor, runId: string, req: ReplayRequest, continued?: AgentEvent[]): Promise<StartedRun> {
    const { owner } = actor;
    const stored = await this.store.getRun(owner, runId);
    if (!stored) throw new NotFoundError(`Run ${runId} does not exist.`);
    if (stored.status === 'running')
      throw new CodedError(
        'run-still-going',
        'This run is still going: replay or continue it once it has ended.',
        undefined,
        409,
      );
    const model = req.model?.trim() || undefined;
    const log = continued ?? (await this.store.getRunEvents(owner, runId));
    // Its number among its message's runs (the page's "answer 2 of 3"), which labels the replay.
    const ofRun = (await this.store.listRuns(owner, stored.turnId)).findIndex((r) => r.id === runId) + 1;
    const plan = planReplay(
      runId,
      log,
      { ...req, model },
      { continuing: continued !== undefined, ...(ofRun ? { ofRun } : {}) },
    );
    const turn = await this.turn(owner, stored.turnId);
    const conversation = await this.conversation(owner, turn.conversationId);
    // The original run's tools and call format, so the two runs differ only by what was asked.
    const settings: ConversationSettings = {
      ...conversation.settings,
      agent: 'fncall',
      tools: plan.tools,
      fncallMode: plan.fncallMode ?? conversation.settings.fncallMode,
      generateCfg: { ...conversation.settings.generateCfg, ...req.generateCfg },
    };
    const callsBefore = continued ? req.fromIteration - 1 : undefined;
    return this.oneAtATime(owner, conversation.id, async () => {
      const agent = await this.agentFor(actor, settings, undefined, model, callsBefore);
      const opening = { turn, dropLater: true };
      return this.start(owner, agent, { kind: 'replay', conversation, opening, plan, model });
    });
  }

  /** `begin` (which starts a run of the conversation) unless a run of it is going or starting already here: then
   *  ConversationBusyError at once, before the agent is made. Only a fast answer: the store is the authority (its
   *  startRun refuses a run of a conversation that has one running, on any instance). */
  private async oneAtATime(
    owner: OwnerScope,
    conversationId: string,
    begin: () => Promise<StartedRun>,
  ): Promise<StartedRun> {
    if (this.starting.has(conversationId)) throw new ConversationBusyError();
    this.starting.add(conversationId); // in the same turn as the check: two requests cannot both pass it
    try {
      if ((await this.runs.runningIn(owner, conversationId)).length) throw new ConversationBusyError();
      await this.runs.closeUnsettled(owner, conversationId);
      return await begin(); // the run is in `runs` once it has started
    } finally {
      this.starting.delete(conversationId);
    }
  }

  /** The user's decision on a tool call a paused run waits on. `childRunId`: the child run (a Router's helper, a
   *  GroupChat's member) whose call it is, when it is not the run's own. */
  async decideTool(
    actor: Actor,
    runId: string,
    functionId: string,
    decision: unknown,
    childRunId?: string,
  ): Promise<void> {
    const parsed = ToolDecisionSchema.safeParse(decision);
    if (!parsed.success) {
      throw new RequestError(
        'A decision is {action: "run", arguments?}, {action: "skip"} or {action: "supply", content}.',
      );
    }
    const key = decisionKey(childRunId ?? runId, functionId);
    const result = await this.runs.decide(actor.owner, runId, key, parsed.data);
    if (result === 'not-running') throw new NotFoundError('This run is not going any more.');
    if (result === 'not-waiting')
      throw new CodedError(
        'run-not-waiting',
        `This run is not waiting for tool call ${functionId}.`,
        { functionId },
        409,
      );
  }

  /**
   * "Simulate a user": what a simulated user (HumanSimulator) says next in the conversation, on the conversation's
   * model, seeing the conversation with the roles swapped; `stop` when it judges the conversation over. The page
   * sends the line as the user's next message, as any message is sent, and asks again for the next turn.
   */
  async simulateUser(actor: Actor, conversationId: string, request: unknown): Promise<SimulatedTurn> {
    const { owner } = actor;
    const req = parseRequest(SimulateRequestSchema, request);
    const conversation = await this.conversation(owner, conversationId);
    const turns = await this.store.listHistory(owner, conversation.id);
    const agent = await this.agentFor(
      actor,
      await this.runSettings(owner, conversation.settings, { id: conversation.id, turns }),
      conversation.id,
    );
    const set = conversation.settings.lang;
    const lang = set && set !== 'auto' ? set : req.lang;
    const simulator = new HumanSimulator({
      llm: agent.llm,
      maxLlmCalls: 1,
      // A different pick each turn, the same one for the same turn.
      seed: 42 + turns.length,
      ...(req.persona?.trim() ? { systemMessage: req.persona.trim() } : {}),
    });
    const said = await simulator.runNonStream(swapRoles(historyOf(turns, Infinity)), lang ? { lang } : {});
    const line = contentText(said[said.length - 1]?.content ?? '').trim();
    return !line || line.includes(SIMULATED_USER_STOP) ? { stop: true } : { message: line };
  }

  /** Stops a run in progress (on any instance). False when it is not running. */
  stop(actor: Actor, runId: string): Promise<boolean> {
    return this.runs.stop(actor.owner, runId);
  }

  /** A conversation with every turn's latest run, as the page opens it. */
  async openConversation(actor: Actor, id: string): Promise<ConversationData> {
    const conversation = await this.store.getConversation(actor.owner, id);
    if (!conversation) throw new NotFoundError('This conversation no longer exists.', 'conversation-gone');
    const turns = (await this.store.listTurns(actor.owner, id)).map((r) => ({
      turn: r.turn,
      runId: r.run?.id,
      runStatus: r.run?.status,
      runCount: r.runCount,
      events: storedFeed(r.events),
    }));
    return { id, title: conversation.title, settings: conversation.settings, turns, updatedAt: conversation.updatedAt };
  }

  /** The turn's `n`th answer (1 is its first run), as the page shows it: earlier answers stay reachable after
   *  regenerate and replay. An `n` out of range gives the nearest. */
  async turnAnswer(actor: Actor, turnId: string, n: number): Promise<TurnAnswer> {
    const { owner } = actor;
    await this.turn(owner, turnId);
    const runs = await this.store.listRuns(owner, turnId);
    if (!runs.length) throw new NotFoundError(`Message ${turnId} has no answer.`);
    const index = Math.min(Math.max(Number.isInteger(n) ? n : runs.length, 1), runs.length) - 1;
    const run = runs[index]!;
    return {
      n: index + 1,
      count: runs.length,
      runId: run.id,
      runStatus: run.status,
      events: storedFeed(await this.store.getRunEvents(owner, run.id)),
    };
  }

  /** Every run of a turn with its events, oldest first (for comparing them). */
  async runsOfTurn(
    actor: Actor,
    turnId: string,
  ): Promise<{ id: string; status: string; startedAt: number; events: AgentEvent[] }[]> {
    const { owner } = actor;
    await this.turn(owner, turnId);
    const runs = await this.store.listRuns(owner, turnId);
    return Promise.all(runs.map(async (r) => ({ ...r, events: await this.store.getRunEvents(owner, r.id) })));
  }

  /** The messages the model sees for a turn: every earlier turn with its latest answer, then this turn. */
  async history(owner: OwnerScope, conversationId: string, beforeSeq: number): Promise<Message[]> {
    return historyOf(await this.store.listHistory(owner, conversationId), beforeSeq);
  }

  /** The conversation's settings with the document tools when it has documents, or the message brings files. */
  private async runSettings(
    owner: OwnerScope,
    settings: ConversationSettings,
    conversation?: { id: string; turns: readonly HistoryTurn[] },
    bringsFiles = false,
  ) {
    const has =
      bringsFiles ||
      (conversation !== undefined &&
        (await conversationHasDocuments(this.store, owner, conversation.id, conversation.turns)));
    return withDocumentTools(settings, has);
  }

  /** The agent for `settings`, once what it needs is ready: its tools allowed and registered (a saved agent naming
   *  one this server does not have is refused, agent-tool-unknown), the conversation's
   *  uploads parsed (so that the message it answers carries them). */
  private async agentFor(
    actor: Actor,
    settings: ConversationSettings,
    conversationId?: string,
    model?: string,
    /** Model calls a continued run made before (it may make the limit's worth more). */
    callsBefore?: number,
  ): Promise<Agent> {
    // Only the actor's own saved agents resolve (another user's id reads as unknown, 404).
    const catalog = this.deps.agentCatalog ?? this.store;
    const saved = settings.agentId ? await resolveAgent(catalog, actor.owner, settings.agentId) : undefined;
    const tools = saved ? allTools(saved) : settings.tools;
    // The gate checks what the agents can run, not only what they list: a TIRMathAgent runs python_executor.
    const runnable = saved ? allRunnable(saved) : toolsRunBy(settings.agent, settings.tools);
    for (const tool of runnable) {
      const refusal = actor.toolRefusal(tool);
      if (refusal) throw new ToolNotAllowedError(tool, refusal);
    }
    await this.deps.prepareTools?.(tools);
    // Once the MCP servers' and plugins' tools are in: a tool no tool here has refuses the agent, naming it.
    if (saved) refuseUnknownTools(saved);
    if (conversationId) await this.deps.parses?.settled(this.store, actor.owner, conversationId);
    return await this.deps.agents(settings, {
      model,
      owner: actor.owner,
      ...(saved ? { saved } : {}),
      ...(callsBefore ? { callsBefore } : {}),
    });
  }

  /** A user message's content, carrying the conversation's ready documents that no earlier turn carries. */
  private carried(owner: OwnerScope, conversationId: string, history: Message[], content: string | ContentItem[]) {
    return withNewDocuments(this.store, owner, conversationId, history, content);
  }

  /** The run of a conversation made for it (a first message, a /v1 request); when it could not start, the empty
   *  conversation goes too (if the store lets it), so that nothing is left of the request. */
  private async orDropped(owner: OwnerScope, conversationId: string, started: Promise<StartedRun>) {
    try {
      return await started;
    } catch (e) {
      await this.store.deleteConversation(owner, conversationId).catch(() => undefined);
      throw e;
    }
  }

  /** The run stored with its opening, in one transaction; resolves with the turn it answers. */
  private async stored(owner: OwnerScope, conversationId: string, opening: Opening, runId: string) {
    if ('turn' in opening) {
      await this.store.startRun(owner, opening.turn.id, runId, { dropLater: opening.dropLater });
      return opening.turn;
    }
    const { content, replacing, settings } = opening;
    return (await this.store.addTurnWithRun(owner, conversationId, content, runId, { replacing, settings })).turn;
  }

  /** Starts the run: its opening stored with it in one transaction (refused while the conversation has a run going,
   *  ConversationBusyError, with nothing stored or dropped), then its events driven into its writer. */
  private async start(owner: OwnerScope, agent: Agent, how: RunPlan): Promise<StartedRun> {
    const { conversation, opening } = how;
    refuseWhenStorageSpent(this.deps.runStorage, owner);
    const runId = randomUUID();
    const turn = await this.stored(owner, conversation.id, opening, runId);
    const input =
      how.kind === 'replay'
        ? how.plan
        : how.kind === 'messages'
          ? how.input
          : [...how.history, { role: 'user' as const, content: turn.content }];
    const writer = this.runs.start(owner, runId, conversation.id);
    // The conversation's language when its settings name one, else the page's; with neither (a replay, a client
    // that does not say) the agent reads it from the messages, as Qwen-Agent does.
    const set = conversation.settings.lang;
    const lang = set && set !== 'auto' ? set : how.kind === 'turn' ? how.pageLang : undefined;
    const own = how.kind === 'messages' ? how.run : undefined;
    // Tool images go back to the model (a seeing one) through the run's generate cfg: the agent lists the files'
    // images in the results, the model layer sends the latest step's (lib/agent/tool-images.ts, lib/llm/tool-images.ts).
    const generateCfg: GenerateCfg = {
      ...own?.generateCfg,
      ...(conversation.settings.toolImages ? { tool_images: true } : {}),
    };
    const opts = {
      signal: writer.signal,
      runId,
      conversationId: conversation.id,
      // Tools stage only the owner's uploads, whatever a message refers to.
      uploadAccess: (hash: string) => this.store.ownsUpload(owner, hash),
      // Vector search's chunk vectors are kept in the database (by content: embedded once per document version).
      vectorStore: this.store,
      ...(lang ? { lang } : {}),
      ...(Object.keys(generateCfg).length ? { generateCfg } : {}),
      ...(how.kind === 'messages' && how.clientTools ? { clientTools: how.clientTools } : {}),
      ...(own?.toolChoice ? { toolChoice: own.toolChoice } : {}),
      ...(conversation.settings.pauseBeforeTools
        ? {
            beforeTool: (call: { functionId: string }, asking: string | undefined) =>
              writer.awaitDecision(decisionKey(asking ?? runId, call.functionId)),
          }
        : {}),
    };
    const events = Array.isArray(input) ? agent.runEvents(input, opts) : replayEvents(agent, input, opts);
    // The first answer of a conversation the page started titles it, once it is in.
    const titled = how.kind === 'turn' && turn.seq === 0 && this.deps.titles === 'model';
    const answer = titled ? { text: '', answered: false } : undefined;
    const recorded = this.record(events, writer, answer);
    if (answer) {
      const done = recorded.then(() =>
        answer.answered ? this.retitle(owner, conversation.id, turn.content, answer.text, agent) : undefined,
      );
      this.titling.set(conversation.id, done);
      void done.finally(() => {
        if (this.titling.get(conversation.id) === done) this.titling.delete(conversation.id);
      });
    } else void recorded;
    return { conversationId: conversation.id, turnId: turn.id, runId, content: turn.content };
  }

  /** The conversation's title once the one being made for it (if any) is done: the page asks after a first answer. */
  async settledTitle(actor: Actor, conversationId: string): Promise<string> {
    await this.conversation(actor.owner, conversationId); // another owner's reads as unknown
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.titling.get(conversationId),
      new Promise((resolve) => (timer = setTimeout(resolve, TITLE_TIMEOUT_MS + 1000))),
    ]).finally(() => clearTimeout(timer));
    return (await this.conversation(actor.owner, conversationId)).title;
  }

  /** Titles the conversation from its first exchange, unless it was renamed meanwhile; keeps its title on failure. */
  private async retitle(
    owner: OwnerScope,
    conversationId: string,
    question: string | ContentItem[],
    answerText: string,
    agent: Agent,
  ): Promise<void> {
    const automatic = titleFrom(question);
    const title = await modelTitle(agent.llm, { question: contentText(question), answer: answerText });
    if (!title) return;
    try {
      const current = await this.store.getConversation(owner, conversationId);
      if (current?.title === automatic) await this.store.renameConversation(owner, conversationId, title);
    } catch {
      // deleted meanwhile, or the store is going away: the title does not matter any more
    }
  }

  /** Drains the run into its writer whatever happens to its readers; a log that cannot be written stops it.
   *  `answer`, when given, collects the answer's text and whether the run answered. */
  private async record(
    events: AsyncGenerator<AgentEvent>,
    writer: RunWriter,
    answer?: { text: string; answered: boolean },
  ): Promise<void> {
    try {
      for await (const event of events) {
        writer.push(event);
        if (answer) {
          if (event.type === 'text-delta' && (event.part === undefined || event.part === 'answer'))
            answer.text += event.text;
          else if (event.type === 'react-step' && event.plainReply) answer.text += event.finalAnswer ?? '';
          else if (event.type === 'run-end') answer.answered = event.reason === 'answered';
        }
        if (writer.failed) break; // leaving the loop stops the run
      }
    } finally {
      await writer.end();
    }
  }

  private async conversation(owner: OwnerScope, id: string): Promise<Conversation> {
    const c = await this.store.getConversation(owner, id);
    if (!c) throw new NotFoundError('This conversation no longer exists.', 'conversation-gone');
    return c;
  }

  private async turn(owner: OwnerScope, id: string): Promise<StoredTurn> {
    const t = await this.store.getTurn(owner, id);
    if (!t)
      throw new NotFoundError('This message no longer exists (it or its conversation was deleted).', 'message-gone');
    return t;
  }
}

/** The messages of the turns before `beforeSeq`: each user message, then what its latest run added. */
function historyOf(turns: readonly HistoryTurn[], beforeSeq: number): Message[] {
  const messages: Message[] = [];
  for (const { turn, messages: added } of turns) {
    if (turn.seq >= beforeSeq) break;
    messages.push({ role: 'user', content: turn.content }, ...added);
  }
  return messages;
}

/** What a paused call waits under: the asking run's id with the call's id (two child runs may both call "call_1"). */
function decisionKey(runId: string, functionId: string): string {
  return `${runId}/${functionId}`;
}

/** Every tool a saved agent and the agents it holds use. */
function allTools(agent: ResolvedAgent): string[] {
  return [...new Set([...agent.tools, ...agent.resolved.flatMap(allTools)])];
}

function allRunnable(agent: ResolvedAgent): string[] {
  return [...new Set([...toolsRunBy(agent.kind, agent.tools), ...agent.resolved.flatMap(allRunnable)])];
}
