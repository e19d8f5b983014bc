// What the page receives from the server: the shapes the chat service builds and the server actions hand over.
// A plain module, so that the page and the tests can import the types without a 'use server' file.
import type { RunStatus } from '../protocol/enums';
import type { ErrorCode, ErrorValues } from '../protocol/errors';
import type { FeedEvent } from '../protocol/events';
import type { ContentItem } from '../protocol/message';
import type { ConversationSettings, StoredTurn } from '../store/types';
import type { CodeInterpreterInfo } from '../../tools/code-sandbox';

/** A server action's failure: the server's words with their HTTP status (404 for what does not exist or is not the
 *  caller's, 403 for what they may not do, 400 for bad input, 500 otherwise), and their code (with what it fills
 *  in) when the page can say them in its language. */
export type ActionFailure = {
  ok: false;
  error: string;
  status: number;
  code?: ErrorCode;
  values?: ErrorValues;
  /** The input field at fault (a 400 of a form: "name", "documents.0.hash"), for the form to point at. */
  field?: string;
};

/** A plugin module that did not load (lib/plugins/catalog.ts). */
export interface PluginFailure {
  /** The file's name in the plugins folder. */
  file: string;
  /** As the server's output says it (English). */
  error: string;
  /** When the refusal is the loader's (not the module's own error): its code and what it fills in, for the admin's
   *  page to say it in its language. */
  code?: ErrorCode;
  values?: ErrorValues;
  /** Where in the module, when it is one of its agents ("agents[1]"). */
  at?: string;
}

/** A server action's answer: its value, or the error to show. */
export type ActionResult<T> = { ok: true; value: T } | ActionFailure;

/** A run just started (or replayed), and its feed. */
export interface RunStream {
  conversationId: string;
  turnId: string;
  runId: string;
  /** The user message as stored (with the files and images it carries). */
  content?: string | ContentItem[];
  events: AsyncIterable<FeedEvent>;
}

export interface TurnData {
  turn: StoredTurn;
  runId?: string;
  runStatus?: RunStatus;
  runCount: number;
  events: FeedEvent[];
}

/** One of a turn's answers (its runs, oldest first): the page switches between them. */
export interface TurnAnswer {
  /** 1-based, oldest first. */
  n: number;
  count: number;
  runId: string;
  runStatus: RunStatus;
  events: FeedEvent[];
}

export interface ConversationData {
  id: string;
  title: string;
  settings: ConversationSettings;
  turns: TurnData[];
  /** When a message or a run last started in it (the list's `updatedAt`): a page that has read it knows from the
   *  list whether another tab or window has added to it since. */
  updatedAt: number;
}

/** A tool of this server's that this user cannot run now: `unavailable`, it says why itself (web_search without a
 *  provider: the refusal a run of it gets, coded; the admin's only, since it names the server's variables);
 *  `not-enabled`, the admin has not enabled it for users;
 *  `no-images`, image_gen, which no connection of this user's can serve (it says so when called). */
export type NotOfferedTool =
  | { name: string; why: 'unavailable'; refusal?: { message: string; code: ErrorCode; values: ErrorValues } }
  | { name: string; why: 'not-enabled' | 'no-images' };

/** What the page needs to know of the server: whether any model is set up (the models themselves are listed on
 *  demand, never with a key), the tools it can offer, the limits. */
export interface AppInfo {
  models: {
    /** A model can be picked (the environment names a server, or a connection or a GGUF file is there). */
    configured: boolean;
    /** May the page add and change server-wide connections and local models? */
    admin: boolean;
  };
  /** `plugin`: the plugin file a tool comes from (the page says "from code"). */
  tools: { name: string; description: string; plugin?: string }[];
  /** Tools this server has that this user cannot run now, and why: not offered, but marked where a list of tools
   *  still names them (an agent's, a conversation's own), as not available now rather than not on this server. */
  notOffered: NotOfferedTool[];
  /** Plugins that failed to load, with their error (the admin only: the message may name the server's paths). */
  pluginFailures?: PluginFailure[];
  /** The agent new conversations start with (the one `npm run serve` serves), as the Agents list would start it. */
  defaultAgent?: { id: string; name: string; avatar: string; description: string; suggestions: string[] };
  /** Which Python runs code_interpreter; the admin is also told how to get the other one (the server's paths,
   *  variables and install command are the admin's business only). */
  codeInterpreter: CodeInterpreterInfo | Pick<CodeInterpreterInfo, 'backend'>;
  maxLlmCalls: number;
  defaultSettings: ConversationSettings;
  /** The signed-in user when accounts are on; null for the one user of an app without them. */
  account: { email: string; name: string; admin: boolean } | null;
}
