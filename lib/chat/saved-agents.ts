// Agents the user saves (the Agents page): their definition checked at the door with messages a person can act
// on, the JSON file an agent is exported to and imported from (a versioned schema), and the tree of agents a
// Router or GroupChat holds, resolved from the store. A Router or GroupChat may hold agents from code too (the
// plugins', by their id `plugin:<name>`, agent-ids.ts): the app hands these functions its catalog of both
// (lib/plugins withPluginAgents), where a saved agent is still looked up for its owner only.
import {
  AgentDefinitionSchema,
  MAX_AGENT_MEMBERS,
  type AgentDefinition,
  type AgentDocument,
} from '../protocol/agent-definition';
import { CodedError, codedOf, type ErrorCode, type ErrorValues } from '../protocol/errors';
import { isPluginAgentId, pluginAgentName } from './agent-ids';
import { NotFoundError } from '../store/errors';
import type { OwnerScope } from '../store/owner';
import { isImageKind } from '../documents/image-kind';
import { unregisteredTools } from './missing-tools';
import type { AgentStore, ChatStore, DocumentStore, SavedAgent } from '../store/types';

export const AGENT_EXPORT_SCHEMA = 'agent-studio.agent/1';
/** Deepest nesting of Routers and GroupChats (an agent holding one holding one…). */
export const MAX_AGENT_DEPTH = 3;

/** A definition that cannot be saved as it is (HTTP 400): the message names the field and says what is wrong; its
 *  code is what the page says in its language (lib/i18n/messages, `errors`). */
export class AgentDefinitionError extends Error {
  override name = 'AgentDefinitionError';
  readonly status = 400;
  constructor(
    message: string,
    /** The field at fault ("name", "documents.0.hash"...), for the form to point at. */
    readonly field: string | undefined,
    readonly code: ErrorCode,
    readonly values?: ErrorValues,
  ) {
    super(message);
  }
}

/** The code (and what it fills in) a schema issue is said by: the limits a person meets in the editor each have
 *  theirs; any other value that does not fit (a wrong type, an unknown kind…) is named by its field. */
function issueCode(
  at: string,
  issue: { code: string; minimum?: unknown; maximum?: unknown },
): [ErrorCode, ErrorValues] {
  const max = Number(issue.maximum);
  if (at === 'name' && issue.code === 'too_small') return ['agent-name-missing', {}];
  if (at === 'name' && issue.code === 'custom') return ['agent-name-reserved', {}];
  if (issue.code === 'too_big' && at === 'name') return ['agent-name-long', { max }];
  if (issue.code === 'too_big' && at === 'suggestions') return ['agent-suggestions-many', { max }];
  if (issue.code === 'too_big' && at === 'members') return ['agent-members-many', { max }];
  if (issue.code === 'too_big' && at === 'documents') return ['agent-documents-many', { max }];
  return ['agent-field-invalid', { field: at || 'agent' }];
}

/** A checked definition, or an AgentDefinitionError whose message names the field and what is wrong with it. */
export function parseAgentDefinition(value: unknown): AgentDefinition {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new AgentDefinitionError(
      'An agent definition is a JSON object ({"name": …, "kind": …}).',
      undefined,
      'agent-not-object',
    );
  const parsed = AgentDefinitionSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.join('.');
    const [code, values] = issueCode(at, issue);
    throw new AgentDefinitionError(
      at ? `${at}: ${issue.message}` : issue.message,
      at || undefined,
      code,
      Object.keys(values).length ? values : undefined,
    );
  }
  const { model, documents, ...rest } = parsed.data;
  const d: AgentDefinition = rest as AgentDefinition;
  if (model) d.model = model;
  // One entry per file: the same bytes attached twice are one document.
  const unique = [...new Map((documents ?? []).map((doc) => [doc.hash, doc])).values()];
  if (unique.length) d.documents = unique;
  const holds = d.kind === 'router' || d.kind === 'groupchat';
  if (holds && !d.members.length) {
    const kind = d.kind === 'router' ? 'Router' : 'GroupChat';
    throw new AgentDefinitionError(`A ${kind} needs at least one member agent.`, 'members', 'agent-members-missing', {
      kind,
    });
  }
  if (!holds) d.members = [];
  if (d.kind === 'groupchat' && d.documents)
    throw new AgentDefinitionError(
      'documents: a GroupChat does not search documents itself; give them to its members.',
      'documents',
      'agent-groupchat-documents',
    );
  return d;
}

/** The store an agent's definition is checked against: its members and documents must be the owner's. */
export type AgentChecks = AgentStore & Pick<DocumentStore, 'ownsUpload'>;

/** The agents a definition's members are looked up in: the owner's saved agents (another user's id reads as
 *  unknown), and in the app the plugins' agents too (by `plugin:<name>`, every user's). */
export type AgentCatalog = Pick<AgentStore, 'getAgent' | 'listAgents'>;

/** Checks a definition and saves it for the owner: a new agent, or a new definition of the owner's agent `id`.
 *  Members must be agents of `agents`: the owner's saved ones, or agents from code. */
export async function saveAgentDefinition(
  store: AgentChecks,
  owner: OwnerScope,
  id: string | undefined,
  definition: unknown,
  agents: AgentCatalog = store,
): Promise<SavedAgent> {
  const checked = parseAgentDefinition(definition);
  const before = id ? await store.getAgent(owner, id) : undefined;
  await checkMembers(agents, owner, id, checked, before?.members);
  // A document is one of the owner's uploads (of a conversation, or already of one of their agents): a hash alone
  // gives no access to someone else's file.
  for (const doc of checked.documents ?? [])
    if (!(await store.ownsUpload(owner, doc.hash)))
      throw new NotFoundError(`documents: "${doc.name}" is not a file you uploaded.`, 'agent-document-not-yours', {
        name: doc.name,
      });
  return id ? store.updateAgent(owner, id, checked) : store.createAgent(owner, checked);
}

/** Codes of a run that cannot find an agent: an agent deleted, a plugin not loaded now. */
const GONE: ReadonlySet<string> = new Set(['agent-gone', 'agent-plugin-gone', 'agent-plugin-member-gone']);

/** Members must be the owner's agents (another user's id reads as unknown) or agents from code loaded now, and what a
 *  run of the agent `id` (absent: a new one) would refuse is refused now, where it is fixed: a member holding it (a
 *  loop), nesting too deep, below it or for an agent holding it (one that ran before the change must still run after
 *  it); members from code count as any. An agent deleted deeper down is left for the run to say (it is not this
 *  definition's fault), and so is a member from code the agent held already (`held`) whose plugin is not loaded now:
 *  it may come back (a file fixed), and saving the agent's other changes should not cost the member. */
async function checkMembers(
  catalog: AgentCatalog,
  owner: OwnerScope,
  id: string | undefined,
  definition: Pick<AgentDefinition, 'name' | 'members'>,
  held: readonly string[] = [],
): Promise<void> {
  const { members } = definition;
  for (const m of members) {
    if (await catalog.getAgent(owner, m)) continue;
    if (!isPluginAgentId(m)) throw new NotFoundError(`members: the agent ${m} does not exist.`, 'agent-member-gone');
    if (!held.includes(m)) {
      const { message, values } = pluginMemberGone(definition.name, m);
      throw new AgentDefinitionError(`members: ${message}`, 'members', 'agent-plugin-member-gone', values);
    }
  }
  const unlessGone = (e: unknown) => {
    if (!GONE.has(codedOf(e)?.code ?? '')) throw e;
  };
  for (const m of members) await resolveAgent(catalog, owner, m, [id ?? 'a new agent']).catch(unlessGone);
  const agents = new Map((await catalog.listAgents(owner)).map((a) => [a.id, a]));
  const current = id && agents.get(id);
  if (!current) return;
  const changed = new Map(agents).set(current.id, { ...current, members });
  const from = (rows: Map<string, SavedAgent>) => ({ getAgent: async (_: OwnerScope, x: string) => rows.get(x) });
  for (const above of holdersOf(current.id, agents)) {
    const ranBefore = await resolveAgent(from(agents), owner, above).then(
      () => true,
      () => false,
    );
    if (ranBefore) await resolveAgent(from(changed), owner, above).catch(unlessGone);
  }
}

/** The agents holding `id`, directly or through others, each once. */
function holdersOf(id: string, agents: Map<string, SavedAgent>): string[] {
  const found = new Set<string>();
  const next = [id];
  for (let at = next.pop(); at !== undefined; at = next.pop())
    for (const a of agents.values())
      if (a.members.includes(at) && !found.has(a.id) && a.id !== id) {
        found.add(a.id);
        next.push(a.id);
      }
  return [...found];
}

/** The export file of one agent: its definition with its members named (ids differ from one app to the next). */
export interface AgentExport {
  schema: typeof AGENT_EXPORT_SCHEMA;
  exportedAt: string;
  agent: Omit<AgentDefinition, 'members'> & { members: string[] };
}

export async function exportAgent(
  store: Pick<AgentStore, 'getAgent'>,
  owner: OwnerScope,
  id: string,
): Promise<AgentExport> {
  const agent = await store.getAgent(owner, id);
  if (!agent) throw new NotFoundError(`Unknown agent id "${id}".`);
  const { id: _id, createdAt: _c, updatedAt: _u, ...definition } = agent;
  // A member from code by its id (`plugin:<name>`: the same wherever its plugin is loaded), a saved one by name.
  const names: string[] = [];
  for (const m of agent.members) names.push(isPluginAgentId(m) ? m : ((await store.getAgent(owner, m))?.name ?? m));
  return {
    schema: AGENT_EXPORT_SCHEMA,
    exportedAt: new Date().toISOString(),
    agent: { ...definition, members: names },
  };
}

/** What an import made: the definition, the documents left out (their bytes are not the importer's here), and the
 *  tools this server does not have (kept in the definition: the agent may have come from a server with more tools;
 *  its runs are refused until it is edited, missing-tools.ts). */
export interface ImportedAgent {
  definition: AgentDefinition;
  /** Names of the file's documents the importer holds no upload of: they are not attached (a file carries no bytes). */
  missingDocuments: string[];
  /** The agent's tools no tool on this server has (no builtin tool, plugin or MCP server of that name). */
  missingTools: string[];
}

/** An export file this app cannot read (HTTP 400), said by its code in the page's language. */
class ImportError extends CodedError {
  override name = 'AgentImportError';
}

/** Reads an export file into a definition for this app: members by name must be saved here already, members from code
 *  (`plugin:<name>`, or a name no saved agent has) loaded here; documents (by name and hash) are attached again where
 *  the importer has uploaded the same bytes, and listed as missing else; tools no tool here has are listed
 *  (`toolsNotHere`: the app's asks with its plugins' and MCP servers' tools in, lib/server/tools-here.ts). */
export async function importAgent(
  store: AgentChecks,
  owner: OwnerScope,
  text: string,
  agents: AgentCatalog = store,
  toolsNotHere: (agent: AgentDefinition) => Promise<string[]> = async (agent) => unregisteredTools(agent),
): Promise<ImportedAgent> {
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch {
    throw new ImportError(
      'agent-import-not-json',
      'This file is not JSON: an agent export is the .json file "Export" saves.',
    );
  }
  const schema = (file as { schema?: unknown } | null)?.schema;
  const expected = AGENT_EXPORT_SCHEMA;
  if (typeof schema === 'string' && schema !== expected)
    throw new ImportError('agent-import-other-schema', `This file is "${schema}", not an agent export (${expected}).`, {
      schema,
      expected,
    });
  if (schema !== expected)
    throw new ImportError(
      'agent-import-not-export',
      `This file is not an agent export: it has no "schema": "${expected}".`,
      { expected },
    );
  const raw = (file as { agent?: unknown }).agent;
  if (!raw || typeof raw !== 'object')
    throw new ImportError('agent-import-no-agent', 'This agent export has no "agent" object.');
  const members: string[] = [];
  const listed = await agents.listAgents(owner);
  for (const name of ((raw as { members?: unknown }).members as unknown[] | undefined) ?? []) {
    const found = memberNamed(listed, String(name));
    if (found) members.push(found.id);
    else if (isPluginAgentId(String(name))) {
      const missing = pluginAgentName(String(name));
      throw new ImportError(
        'agent-import-plugin-missing',
        `members: "${missing}" comes from code (a plugin file) that this server has not loaded.`,
        { name: missing },
      );
    } else
      throw new ImportError('agent-import-member-missing', `members: "${name}" is not saved here; import it first.`, {
        name: String(name),
      });
  }
  const definition = parseAgentDefinition({ ...raw, members });
  const kept = [];
  const missingDocuments: string[] = [];
  for (const doc of definition.documents ?? [])
    if (await store.ownsUpload(owner, doc.hash)) kept.push(doc);
    else missingDocuments.push(doc.name);
  delete definition.documents;
  if (kept.length) definition.documents = kept;
  return { definition, missingDocuments, missingTools: await toolsNotHere(definition) };
}

/** The agent an export file's member names: `plugin:<name>` the agent from code of that id (else a saved agent of that
 *  name), any other name the owner's saved agent of that name (else an agent from code of that name: files exported
 *  before members from code went by id); letter case aside. */
function memberNamed(listed: readonly SavedAgent[], name: string): SavedAgent | undefined {
  const same = (a: string) => a.toLowerCase() === name.toLowerCase();
  const saved = listed.filter((a) => !isPluginAgentId(a.id));
  const fromCode = listed.filter((a) => isPluginAgentId(a.id));
  const byName = (rows: SavedAgent[]) => rows.find((a) => same(a.name));
  if (isPluginAgentId(name))
    return fromCode.find((a) => a.id === name) ?? fromCode.find((a) => same(a.id)) ?? byName(saved);
  return byName(saved) ?? byName(fromCode);
}

/** What to do with an import whose name the owner already gives an agent: replace that agent (its id stays, so the
 *  conversations and groups holding it keep it), or keep both (the import gets the next free "Name (2)"). */
export type ImportChoice = 'replace' | 'keep-both';

/** The longest agent name (AgentDefinitionSchema). */
const MAX_NAME = 60;

/** `name`, or "name (2)", "name (3)"… : the first not among `taken` (names compare without case, as an import
 *  matches members). */
function freeName(name: string, taken: string[]): string {
  const used = new Set(taken.map((n) => n.toLowerCase()));
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${name.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/** Saves an imported definition for the owner. When one of their agents has its name (without case) and no choice is
 *  given, nothing is saved: the answer names that agent, for the user to choose. Its members are checked as a save
 *  checks them (a replaced agent its members would hold, nesting too deep: refused, nothing saved). */
export async function saveImportedAgent(
  store: AgentStore,
  owner: OwnerScope,
  definition: AgentDefinition,
  choice?: ImportChoice,
  catalog: AgentCatalog = store,
): Promise<{ agent: SavedAgent; replaced?: SavedAgent } | { conflict: { id: string; name: string } }> {
  const agents = await store.listAgents(owner);
  const same = agents.find((a) => a.name.toLowerCase() === definition.name.toLowerCase());
  if (same && !choice) return { conflict: { id: same.id, name: same.name } };
  const replacing = same && choice === 'replace' ? same : undefined;
  await checkMembers(catalog, owner, replacing?.id, definition);
  if (!same) return { agent: await store.createAgent(owner, definition) };
  if (replacing) return { agent: await store.updateAgent(owner, replacing.id, definition), replaced: replacing };
  const name = freeName(
    definition.name,
    agents.map((a) => a.name),
  );
  return { agent: await store.createAgent(owner, { ...definition, name }) };
}

/** A saved agent with the agents it holds, resolved (for a Router or a GroupChat). */
export interface ResolvedAgent extends SavedAgent {
  resolved: ResolvedAgent[];
}

/** Only the owner's agents resolve (another user's id, as a conversation's agent or a member, reads as unknown), and
 *  agents from code that are loaded now: one that is not is refused by its name (and the agent holding it). */
export async function resolveAgent(
  store: Pick<AgentStore, 'getAgent'>,
  owner: OwnerScope,
  id: string,
  path: string[] = [],
): Promise<ResolvedAgent> {
  const agent = await store.getAgent(owner, id);
  if (!agent && isPluginAgentId(id)) {
    const name = pluginAgentName(id);
    throw new NotFoundError(
      `The agent “${name}” comes from code (a plugin file) that the server has not loaded now (its file was removed or failed to load): the server’s admin can put it back.`,
      'agent-plugin-gone',
      { name },
    );
  }
  if (!agent)
    throw new NotFoundError(
      'A saved agent this conversation uses no longer exists (it may have been deleted).',
      'agent-gone',
    );
  if (path.includes(id))
    throw new AgentDefinitionError(
      `"${agent.name}" holds itself (through its members).`,
      'members',
      'agent-holds-itself',
      {
        name: agent.name,
      },
    );
  if (path.length >= MAX_AGENT_DEPTH)
    throw new AgentDefinitionError(`Agents nest at most ${MAX_AGENT_DEPTH} deep.`, 'members', 'agent-too-deep', {
      max: MAX_AGENT_DEPTH,
    });
  // A row saved before the limit: its members are not built (each would be, at every level).
  if (agent.members.length > MAX_AGENT_MEMBERS)
    throw new AgentDefinitionError(
      `"${agent.name}" holds ${agent.members.length} members; a Router or GroupChat holds at most ${MAX_AGENT_MEMBERS}: edit it.`,
      'members',
      'agent-members-over',
      { name: agent.name, count: agent.members.length, max: MAX_AGENT_MEMBERS },
    );
  const resolved: ResolvedAgent[] = [];
  for (const m of agent.members) {
    if (isPluginAgentId(m) && !(await store.getAgent(owner, m))) {
      const { message, values } = pluginMemberGone(agent.name, m);
      throw new CodedError('agent-plugin-member-gone', message, values, 409);
    }
    resolved.push(await resolveAgent(store, owner, m, [...path, id]));
  }
  return { ...agent, resolved };
}

/** A member from code whose plugin is not loaded now, said with the agent holding it. */
function pluginMemberGone(holder: string, id: string): { message: string; values: ErrorValues } {
  const name = pluginAgentName(id);
  return {
    message: `“${name}”, a member of “${holder}”, comes from code (a plugin file) that the server has not loaded now (its file was removed or failed to load): the server’s admin can put it back, or take it out of “${holder}”.`,
    values: { name, holder },
  };
}

/** The files an owner may give an agent from what they uploaded to their conversations: the readable documents
 *  (no images), once per content, newest conversation first. */
export async function uploadedDocuments(
  store: Pick<ChatStore, 'listConversations' | 'listDocuments'>,
  owner: OwnerScope,
): Promise<(AgentDocument & { conversation: string })[]> {
  const found = new Map<string, AgentDocument & { conversation: string }>();
  for (const c of await store.listConversations(owner))
    for (const d of await store.listDocuments(owner, c.id))
      if (d.state === 'ready' && !isImageKind(d.kind) && !found.has(d.hash))
        found.set(d.hash, { hash: d.hash, name: d.name, size: d.size, conversation: c.title });
  return [...found.values()];
}
