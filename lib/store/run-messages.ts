// What an ended run added to its conversation, kept with the run (schema version 11): the next run's history then
// reads one row per turn instead of every event of every run, which grew with the conversation (about 12 ms for 40
// turns of a few hundred events on SQLite, before each first model call). Both stores keep and read them alike.
import { foldEvents } from '../agent/fold';
import type { Message } from '../llm/schema';
import type { AgentEvent } from '../protocol/events';

export function messagesJson(events: Iterable<AgentEvent>): string {
  return JSON.stringify(foldEvents(events));
}

/** The kept messages of a run, or undefined when none are kept (it is running, or ended before version 11). */
export function keptMessages(json: string | null): Message[] | undefined {
  return json === null ? undefined : (JSON.parse(json) as Message[]);
}
