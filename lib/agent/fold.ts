// Folds the event stream back into Qwen-Agent's messages: the new messages of a run, in upstream's order
// ([reasoning?, text?, call1, call2, ..., result1, result2, ...] per model call). run() yields these snapshots.
// A child run's messages (a Router's helper, a GroupChat's member) join the run's where they happened, each named
// by the child, as upstream's Router and GroupChat yield them; a child run aside (a step whose output the run reads)
// adds none.
import type { Message } from '../llm/schema';
import { TRANSCRIPT_KINDS } from '../protocol/enums';
import type { AgentEvent } from '../protocol/events';

export class MessageFold {
  private agentName = '';
  /** The child run being folded (children run one after another), writing into the same list. */
  private child?: { runId: string; fold: MessageFold };
  private toolCallsInText = false;
  private reasoningMsg?: Message;
  private textMsg?: Message;
  private iteration = -1;

  /** `out`: where the messages go (a child's fold shares its parent's). */
  constructor(private readonly out: Message[] = []) {}

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
        if (this.child?.runId !== e.event.runId) this.child = { runId: e.event.runId, fold: new MessageFold(this.out) };
        return this.child.fold.apply(e.event);
      }
      case 'run-start':
        this.agentName = e.agent;
        this.toolCallsInText = TRANSCRIPT_KINDS.includes(e.kind);
        return false;
      case 'reasoning-delta': {
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
        if (!this.textMsg) {
          this.textMsg = this.named({ role: 'assistant', content: '' });
          this.out.push(this.textMsg);
        }
        this.textMsg.content += e.text;
        return true;
      }
      case 'tool-call':
        if (this.toolCallsInText) return false;
        this.enter(e.iteration);
        this.out.push(
          this.named({
            role: 'assistant',
            content: '',
            function_call: { name: e.name, arguments: e.arguments },
            extra: { function_id: e.functionId },
          }),
        );
        return true;
      case 'tool-result': {
        if (this.toolCallsInText) return false;
        // The history shows the call as it ran (the user may have edited its arguments first).
        const call = this.out.findLast((m) => m.function_call && m.extra?.function_id === e.functionId);
        if (call?.function_call && call.function_call.arguments !== e.arguments)
          call.function_call = { ...call.function_call, arguments: e.arguments };
        this.out.push({ role: 'function', name: e.name, content: e.content, extra: { function_id: e.functionId } });
        return true;
      }
      default:
        return false;
    }
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

  private named(m: Message): Message {
    return this.agentName ? { ...m, name: this.agentName } : m;
  }
}

/** The messages a finished event log describes. */
export function foldEvents(events: Iterable<AgentEvent>): Message[] {
  const fold = new MessageFold();
  for (const e of events) fold.apply(e);
  return fold.snapshot();
}
