// Folds the event stream back into Qwen-Agent's messages: the new messages of a run, in upstream's order
// ([reasoning?, text?, call1, call2, ..., result1, result2, ...] per model call). run() yields these snapshots.
// A child run's messages (a Router's helper, a GroupChat's member) join the run's where they happened, each named
// by the child, as upstream's Router and GroupChat yield them; a child run aside (a step whose output the run reads)
// adds none. A finished run's calls left without a result get one saying why (lib/protocol/unfinished-calls.ts), so
// that the history the model reads next pairs every call with a result, as OpenAI-compatible servers require.
import type { Message } from '../llm/schema';
import { SIMULATED_USER_STOP, TRANSCRIPT_KINDS } from '../protocol/enums';
import type { AgentEvent } from '../protocol/events';
import type { RunOutcome } from '../protocol/enums';
import { endsRun, runningCall, unfinishedCall, type CallSoFar } from '../protocol/unfinished-calls';

interface FoldedCall extends CallSoFar {
  functionId: string;
  name: string;
}

export class MessageFold {
  private agentName = '';
  /** The child run being folded (children run one after another), writing into the same list. */
  private child?: { runId: string; fold: MessageFold };
  private toolCallsInText = false;
  private reasoningMsg?: Message;
  private textMsg?: Message;
  private iteration = -1;
  /** The run's own calls in the messages, in order (its child runs' are their folds'). */
  private readonly calls: FoldedCall[] = [];
  /** How the run ended, once its run-end came. */
  private ended?: RunOutcome;

  /** `out`: where the messages go (a child's fold shares its parent's). `asUser`: the run speaks as the user (a
   *  DialogueSimulator's simulated user): its text becomes user messages, without its reasoning and tool steps (as
   *  upstream swaps the roles), and its stop marker ends the dialogue without becoming a line of it. */
  constructor(
    private readonly out: Message[] = [],
    private readonly asUser = false,
  ) {}

  /** Applies one event; returns true when the messages changed. */
  apply(e: AgentEvent): boolean {
    switch (e.type) {
      case 'child': {
        // A step the run reads (ParallelDocQA's readers, a keyword strategy) adds no messages of the run's.
        if (e.aside) return false;
        // What the run says after its child starts a message of its own.
        this.iteration = -1;
        this.reasoningMsg = undefined;
        this.textMsg = undefined;
        if (this.child?.runId !== e.event.runId)
          this.child = { runId: e.event.runId, fold: new MessageFold(this.out, e.asUser === true) };
        return this.child.fold.apply(e.event);
      }
      case 'run-start':
        this.agentName = e.agent;
        this.toolCallsInText = TRANSCRIPT_KINDS.includes(e.kind);
        return false;
      case 'run-end':
        this.ended = e.reason;
        return false;
      case 'reasoning-delta': {
        if (this.asUser) return false;
        this.enter(e.iteration);
        if (!this.reasoningMsg) {
          this.reasoningMsg = this.named({ role: 'assistant', content: '', reasoning_content: '' });
          // Reasoning comes first in an iteration even if text arrived before it.
          const at = this.textMsg ? this.out.indexOf(this.textMsg) : this.out.length;
          this.out.splice(at, 0, this.reasoningMsg);
        }
        this.reasoningMsg.reasoning_content += e.text;
        return true;
      }
      case 'text-delta': {
        // ReAct and TIR keep one transcript message for the whole run.
        if (!this.toolCallsInText) this.enter(e.iteration);
        if (e.newMessage) this.textMsg = undefined;
        if (this.asUser && e.text.includes(SIMULATED_USER_STOP)) return false;
        if (!this.textMsg) {
          this.textMsg = this.named({ role: e.role ?? 'assistant', content: '' });
          if (e.name) this.textMsg.name = e.name;
          this.out.push(this.textMsg);
        }
        this.textMsg.content += e.text;
        return true;
      }
      case 'tool-call':
        if (this.toolCallsInText || this.asUser) return false;
        this.enter(e.iteration);
        this.out.push(
          this.named({
            role: 'assistant',
            content: '',
            function_call: { name: e.name, arguments: e.arguments },
            extra: { function_id: e.functionId },
          }),
        );
        this.calls.push({ functionId: e.functionId, name: e.name, settled: false, client: e.client });
        return true;
      case 'tool-approval': {
        const call = this.callOf(e.functionId);
        if (call) call.awaiting = true;
        return false;
      }
      case 'tool-decision': {
        const call = this.callOf(e.functionId);
        if (call) call.awaiting = false;
        return false;
      }
      case 'tool-result': {
        if (this.toolCallsInText || this.asUser) return false;
        // The history shows the call as it ran (the user may have edited its arguments first).
        const call = this.out.findLast((m) => m.function_call && m.extra?.function_id === e.functionId);
        if (call?.function_call && call.function_call.arguments !== e.arguments)
          call.function_call = { ...call.function_call, arguments: e.arguments };
        this.out.push({ role: 'function', name: e.name, content: e.content, extra: { function_id: e.functionId } });
        const settled = this.callOf(e.functionId);
        if (settled) Object.assign(settled, { settled: true, awaiting: false, endsRun: endsRun(e.error?.kind) });
        return true;
      }
      default:
        return false;
    }
  }

  /**
   * The run is over (`outcome`: how, for a run whose log has no run-end: its server stopped): each call without a
   * result gets one saying it was running when the run failed or its server stopped, or that it never started. A
   * tool the caller declared is the caller's to answer. Its child run still going ends as it did.
   */
  finish(outcome: RunOutcome): void {
    const own = this.ended ?? outcome;
    const running = runningCall(this.calls);
    this.calls.forEach((call, i) => {
      if (call.settled || call.client) return;
      call.settled = true;
      const content = unfinishedCall(i === running, own).message;
      this.out.push({ role: 'function', name: call.name, content, extra: { function_id: call.functionId } });
    });
    this.child?.fold.finish(own);
  }

  /** A copy safe to hand out: later events never change a snapshot already given. */
  snapshot(): Message[] {
    return this.out.map((m) => ({
      ...m,
      ...(m.function_call ? { function_call: { ...m.function_call } } : {}),
      ...(m.extra ? { extra: { ...m.extra } } : {}),
    }));
  }

  private enter(iteration: number): void {
    if (iteration === this.iteration) return;
    this.iteration = iteration;
    this.reasoningMsg = undefined;
    this.textMsg = undefined;
  }

  /** The latest call of that id (ids are unique within a model call, not across a run). */
  private callOf(functionId: string): FoldedCall | undefined {
    return this.calls.findLast((c) => c.functionId === functionId);
  }

  private named(m: Message): Message {
    const own = this.asUser ? { ...m, role: 'user' as const } : m;
    return this.agentName ? { ...own, name: this.agentName } : own;
  }
}

/** The messages an event log describes. `outcome`: the run is over, and ended so (its stored status): its calls
 *  left without a result get one (MessageFold.finish), as the history the next run is given. */
export function foldEvents(events: Iterable<AgentEvent>, outcome?: RunOutcome): Message[] {
  const fold = new MessageFold();
  for (const e of events) fold.apply(e);
  if (outcome) fold.finish(outcome);
  return fold.snapshot();
}
