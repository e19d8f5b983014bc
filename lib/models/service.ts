// The models a user can pick, and what it takes to call one: the connection from the environment (OPENAI_*), the
// connections added on the page (their keys encrypted at rest), the servers found on this machine, and the GGUF
// files of the built-in local model. The picker's list, a conversation's model and an agent's model all go by the
// ids this service hands out (ids.ts); the composition root builds it once.
//
// Who may do what: a connection with no owner is server-wide: the environment's (OPENAI_*) and what an admin adds
// on the page (without accounts the one user is the admin). Everyone sees and uses them, only an admin changes them,
// and nobody ever gets their key back. What another user adds is theirs alone: nobody else sees, tests, uses or
// edits it, and its id reads to them as unknown (404). The store filters by the owner (lib/store/connections.ts).
import type { AppConfig } from '../config';
import { imageModelOf, resolveCapabilities, type CapabilityHints, type ModelCapabilities } from '../llm/capabilities';
import { ratesFor, type ModelRates } from '../llm/cost';
import type { ModelConfig } from '../llm/factory';
import type { ImageEndpoint } from '../llm/images';
import { listLocalModels, resolveLocalModel, type LocalModelFile } from '../llm/local';
import { scanLocalServers, type FoundServer } from '../llm/local-servers';
import {
  listServerModels,
  normalizeBaseUrl,
  withOllamaCapabilities,
  type ServerModel,
  type ServerModelsResult,
} from '../llm/server-models';
import { blockedAddressIn, type AddressPolicy } from '../net/address-policy';
import { guardedFetch } from '../net/guarded-fetch';
import { resolveChecked } from '../net/resolve-checked';
import { codedOf, CodedError, type ErrorCode, type ErrorValues } from '../protocol/errors';
import { NotFoundError } from '../store/errors';
import type { OwnerScope } from '../store/owner';
import type { ConnectionStore, StoredConnection } from '../store/types';
import {
  ENV_CONNECTION_ID,
  ENV_CONNECTION_NAME,
  LOCAL_CONNECTION_ID,
  LOCAL_CONNECTION_NAME,
  modelId,
  parseModelId,
} from './ids';

export { ENV_CONNECTION_NAME, LOCAL_CONNECTION_NAME };
import { SecretBoxError, type SecretBox } from './secret-box';
import { isErrorNamed } from '../protocol/errors';

/** Who is asking: their owner scope, and whether they may change server-wide connections (a Viewer is one). */
export interface ModelViewer {
  owner: OwnerScope;
  admin: boolean;
}

/** A connection as the page sees it: never the key, only whether one is set. */
export interface ConnectionView {
  id: string;
  name: string;
  baseURL: string;
  /** environment: OPENAI_BASE_URL and friends (changed only there); page: added on the page. */
  source: 'environment' | 'page';
  keySet: boolean;
  /** The stored key cannot be decrypted (another SECRET_KEY or key file): it must be entered again. */
  keyProblem?: string;
  serverWide: boolean;
  /** May this viewer edit or remove it? */
  editable: boolean;
  /** What the user set: "*" for every model of the connection, or per model name. */
  capabilities: Record<string, CapabilityHints>;
  /** Prices per million tokens and context lengths, keyed the same way (the environment's: from its variables). */
  rates: Record<string, ModelRates>;
}

export interface ModelOption {
  /** What a conversation stores (ids.ts). */
  id: string;
  name: string;
  capabilities: ModelCapabilities;
}

/** One connection's models, as the picker groups them. */
export interface ModelGroup {
  connectionId: string;
  name: string;
  source: 'environment' | 'page' | 'local';
  models: ModelOption[];
  /** Why the list is missing or short (the server did not answer, the key was refused...). */
  problem?: string;
}

/** A server found on this machine, and whether it is connected already. */
export interface FoundServerView extends Omit<FoundServer, 'models'> {
  models: string[];
  /** The connection that already reaches it, if any. */
  connectedAs?: string;
}

/** A conversation's model, ready to build. */
export interface ResolvedModel {
  id: string;
  name: string;
  connectionId: string;
  connectionName: string;
  local: boolean;
  /** For createChatModel; the caller adds the call format and generation settings. */
  config: ModelConfig;
  capabilities: ModelCapabilities;
  /** The server answered 400 to tools and the text format worked: remembered for this model. */
  learnToolsRefused(): Promise<void>;
}

export interface ConnectionInput {
  name: string;
  baseURL: string;
  /** undefined: keep the stored key; null or '': none. */
  apiKey?: string | null;
  capabilities?: Record<string, CapabilityHints>;
  rates?: Record<string, ModelRates>;
  /** Save although the server could not be reached or answered as no OpenAI-compatible server does (the user said so,
   *  in so many words: it may be down for now). */
  saveAnyway?: boolean;
}

/** A request the service refuses, in words the page shows, with its HTTP status (bad input: 400). */
export class ModelRequestError extends Error {
  override name = 'ModelRequestError';
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** A connection refused for what it would do (send a stored key elsewhere, reach the server's own network, save a
 *  server that cannot be reached or is not OpenAI-compatible), with its HTTP status and a code the page says in its
 *  language. */
export class ConnectionRefusedError extends CodedError {
  override name = 'ConnectionRefusedError';
  constructor(code: ErrorCode, message: string, status: number, values?: ErrorValues) {
    super(code, message, values, status);
  }
}

/** What the address policy's refusal tells a user whose connection reaches for the server's own network. */
const PRIVATE_ADVICE =
  "Only the server's own connections (its environment's and an admin's) may reach private, loopback or link-local " +
  'addresses; ALLOW_PRIVATE_MODEL_URLS=1 allows them for everyone.';

/** Where a request goes and what it carries: the stored connection's (the environment's included). */
interface Target {
  baseURL: string;
  apiKey?: string;
  name: string;
  /** Chosen by the server's owner (the environment's, or an admin's server-wide connection): any address. */
  trusted: boolean;
}

const DEFAULT_ENV_MODEL = 'gpt-4o-mini';
const LIST_TTL_MS = 30_000;
const LIST_TIMEOUT_MS = 6000;
const MAX_NAME = 80;
const MAX_KEY = 4096;
const MAX_RATED_MODELS = 200;
const MAX_MODEL_NAME = 200;
const MAX_PRICE = 1_000_000;
const MAX_CONTEXT = 100_000_000;

export interface ModelServiceDeps {
  store: ConnectionStore;
  /** The keys' box, made on first use (the composition root makes it at start). */
  box: () => SecretBox;
  config: Pick<AppConfig, 'llm' | 'localModels' | 'models'>;
  /** The clock the loopback scan's reuse goes by (tests move it). */
  now?: () => number;
}

/** A loopback scan this recent is reused: the empty page and the Models dialog scan when they open, and a model server
 *  started after the app shows up within these few seconds (each port answers within MODEL_SCAN_TIMEOUT_MS). */
export const SCAN_REUSE_MS = 5000;

interface Listing {
  at: number;
  result: Promise<ServerModelsResult>;
}

export class ModelService {
  private readonly listings = new Map<string, Listing>();
  private scanning?: { at: number; found: Promise<FoundServer[]> };

  constructor(private readonly deps: ModelServiceDeps) {}

  private get config() {
    return this.deps.config;
  }

  /** Is OPENAI_BASE_URL (or OPENAI_API_KEY) set? Then the environment's connection comes first. */
  get envConfigured(): boolean {
    return Boolean(this.config.llm.baseURL || this.config.llm.apiKey);
  }

  private envModel(): string {
    return this.config.llm.model ?? DEFAULT_ENV_MODEL;
  }

  // ---- connections ----

  async connections(viewer: ModelViewer): Promise<ConnectionView[]> {
    const saved = await this.deps.store.listConnections(viewer.owner);
    const views = saved.map((c) => this.view(viewer, c));
    if (!this.envConfigured) return views;
    const env: ConnectionView = {
      id: ENV_CONNECTION_ID,
      name: ENV_CONNECTION_NAME,
      baseURL: this.config.llm.baseURL ?? 'https://api.openai.com/v1',
      source: 'environment',
      keySet: Boolean(this.config.llm.apiKey),
      serverWide: true,
      editable: false,
      capabilities: {},
      rates: Object.keys(this.config.llm.rates).length ? { '*': this.config.llm.rates } : {},
    };
    return [env, ...views];
  }

  /** The connections as the page lists them: the address of one the viewer cannot edit (the environment's, a
   *  server-wide one) is the admin's business only. */
  async pageConnections(viewer: ModelViewer): Promise<ConnectionView[]> {
    const all = await this.connections(viewer);
    if (viewer.admin) return all;
    return all.map(({ keyProblem: _problem, ...c }) =>
      c.editable ? { ...c, ...(_problem ? { keyProblem: _problem } : {}) } : { ...c, baseURL: '' },
    );
  }

  private view(viewer: ModelViewer, c: StoredConnection): ConnectionView {
    const view: ConnectionView = {
      id: c.id,
      name: c.name,
      baseURL: c.baseURL,
      source: 'page',
      keySet: c.apiKeyCipher !== null,
      serverWide: c.ownerId === null,
      editable: this.mayEdit(viewer, c),
      capabilities: c.capabilities,
      rates: c.rates,
    };
    if (c.apiKeyCipher !== null) {
      try {
        this.deps.box().open(c.apiKeyCipher);
      } catch (e) {
        view.keyProblem = e instanceof Error ? e.message : String(e);
      }
    }
    return view;
  }

  private mayEdit(viewer: ModelViewer, c: StoredConnection): boolean {
    return c.ownerId === null ? viewer.admin : c.ownerId === viewer.owner.ownerId;
  }

  /** A connection the owner sees (server-wide or theirs), or undefined: the store filters by the owner. */
  private async visible(owner: OwnerScope, id: string): Promise<StoredConnection | undefined> {
    return this.deps.store.getConnection(owner, id);
  }

  /** Whose rows an edit of `c` touches: null for a server-wide connection, else the viewer's own. */
  private editScope(viewer: ModelViewer, c: StoredConnection): OwnerScope | null {
    return c.ownerId === null ? null : viewer.owner;
  }

  private async editable(viewer: ModelViewer, id: string): Promise<StoredConnection> {
    if (id === ENV_CONNECTION_ID)
      throw new ModelRequestError(
        "This connection comes from the server's environment (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL): change it there.",
      );
    const c = await this.visible(viewer.owner, id);
    // Another user's connection reads as one that does not exist (404).
    if (!c) throw new NotFoundError(`Unknown connection id "${id}".`);
    if (!this.mayEdit(viewer, c))
      throw new ModelRequestError('Only an admin can change the server-wide connections.', 403);
    return c;
  }

  /**
   * The addresses a connection's URL may reach: any, when the server's owner chose it (the environment, an admin) or
   * ALLOW_PRIVATE_MODEL_URLS=1 says everyone may; else public ones only. Checked where each socket is opened
   * (lib/net/guarded-fetch.ts), for every request made for the connection.
   */
  private addressPolicy(trusted: boolean): AddressPolicy {
    return {
      allowPrivate: trusted || this.config.models.allowPrivateUrls,
      allowHosts: [],
      advice: PRIVATE_ADVICE,
      hideAddress: true,
    };
  }

  /** Refuses, before anything is sent, a URL whose host the policy refuses (403). A name that does not resolve now
   *  is let through: the request says it is unreachable, and is checked again when it connects. */
  private async checkAddress(baseURL: string, policy: AddressPolicy): Promise<void> {
    if (policy.allowPrivate) return;
    const host = new URL(baseURL).hostname;
    try {
      await resolveChecked(host, policy);
    } catch (e) {
      const blocked = blockedAddressIn(e);
      if (blocked) throw new ConnectionRefusedError('address-refused', blocked.message, 403, { host });
    }
  }

  /**
   * The key a request to `baseURL` may carry for a stored connection: its own key goes only to the URL it was saved
   * with. Another URL with no new key is refused (400) when a key is stored: the key would go there.
   */
  private storedKeyFor(target: Target, baseURL: string): string | undefined {
    if (sameBaseUrl(baseURL, target.baseURL)) return target.apiKey;
    if (target.apiKey === undefined) return undefined;
    throw keyNeeded(target.name);
  }

  private checked(input: Partial<ConnectionInput>): { name?: string; baseURL?: string } {
    const out: { name?: string; baseURL?: string } = {};
    if (input.name !== undefined) {
      const name = input.name.trim();
      if (!name) throw new ModelRequestError('Give the connection a name.');
      if (name.length > MAX_NAME) throw new ModelRequestError(`A name has at most ${MAX_NAME} characters.`);
      out.name = name;
    }
    if (input.baseURL !== undefined) {
      const url = normalizeBaseUrl(input.baseURL);
      if (!url.ok) throw new ModelRequestError(url.message);
      out.baseURL = url.url;
    }
    if (typeof input.apiKey === 'string' && input.apiKey.length > MAX_KEY)
      throw new ModelRequestError(`An API key has at most ${MAX_KEY} characters.`);
    if (input.rates) checkRates(input.rates);
    return out;
  }

  private seal(apiKey: string | null | undefined): string | null | undefined {
    if (apiKey === undefined) return undefined;
    const key = apiKey?.trim();
    return key ? this.deps.box().seal(key) : null;
  }

  /** Saves a new connection: server-wide when an admin adds it, else the viewer's own. It takes effect at once. */
  async addConnection(viewer: ModelViewer, input: ConnectionInput): Promise<ConnectionView> {
    const { name, baseURL } = this.checked(input);
    if (!name || !baseURL) throw new ModelRequestError('A connection needs a name and a base URL.');
    const listed = await this.probe(baseURL, input.apiKey?.trim() || undefined, viewer.admin, input.saveAnyway);
    const saved = await this.deps.store.addConnection(viewer.admin ? null : viewer.owner, {
      name,
      baseURL,
      apiKeyCipher: this.seal(input.apiKey) ?? null,
      capabilities: input.capabilities ?? {},
      rates: input.rates ?? {},
    });
    if (listed) this.listings.set(saved.id, { at: Date.now(), result: Promise.resolve(listed) });
    return this.view(viewer, saved);
  }

  /**
   * What saving a URL (and key) asks first: the address policy (the viewer's: an admin may name any address), then
   * the server's model list. A server that does not answer, refuses the key, answers with an error or is not
   * OpenAI-compatible is refused, saying which, unless `saveAnyway` (it may be down for now). Returns the list when
   * there is one (the picker's first listing).
   */
  private async probe(
    baseURL: string,
    apiKey: string | undefined,
    trusted: boolean,
    saveAnyway = false,
  ): Promise<ServerModelsResult | undefined> {
    const policy = this.addressPolicy(trusted);
    await this.checkAddress(baseURL, policy);
    const fetch = guardedFetch(policy);
    const result = await listServerModels(baseURL, { apiKey, timeoutMs: LIST_TIMEOUT_MS, fetch });
    if (result.ok) return { ok: true, models: await withOllamaCapabilities(baseURL, result.models, { fetch }) };
    if (result.problem === 'blocked') throw new ConnectionRefusedError('address-refused', result.message, 403);
    if (saveAnyway) return undefined;
    throw probeRefusal(result, baseURL);
  }

  async updateConnection(viewer: ModelViewer, id: string, patch: Partial<ConnectionInput>): Promise<ConnectionView> {
    const current = await this.editable(viewer, id);
    const { name, baseURL } = this.checked(patch);
    const moved = baseURL !== undefined && !sameBaseUrl(baseURL, current.baseURL);
    // A stored key goes only where it was saved to go: a new URL needs a new key (or none).
    if (moved && patch.apiKey === undefined && current.apiKeyCipher !== null) throw keyNeeded(current.name);
    // A new URL or key is checked as a new connection is; the same URL keeps the policy it was saved under.
    if (moved || (patch.apiKey !== undefined && patch.apiKey !== null))
      await this.probe(
        baseURL ?? current.baseURL,
        patch.apiKey?.trim() || undefined,
        moved ? viewer.admin : viewer.admin || current.ownerId === null,
        patch.saveAnyway,
      );
    const saved = await this.deps.store.updateConnection(this.editScope(viewer, current), id, {
      ...(name ? { name } : {}),
      ...(baseURL ? { baseURL } : {}),
      ...(patch.apiKey !== undefined ? { apiKeyCipher: this.seal(patch.apiKey) ?? null } : {}),
      ...(patch.capabilities ? { capabilities: patch.capabilities } : {}),
      ...(patch.rates ? { rates: patch.rates } : {}),
    });
    this.listings.delete(id);
    return this.view(viewer, saved);
  }

  async removeConnection(viewer: ModelViewer, id: string): Promise<void> {
    const current = await this.editable(viewer, id);
    await this.deps.store.removeConnection(this.editScope(viewer, current), id);
    this.listings.delete(id);
  }

  /**
   * Test connection: the server's models, or what failed. `id` tests a saved (or the environment's) connection, with
   * the fields given replacing its own for the test (a key left out is the stored one).
   */
  async testConnection(
    viewer: ModelViewer,
    input: { id?: string; baseURL?: string; apiKey?: string | null },
  ): Promise<ServerModelsResult> {
    let baseURL: string | undefined;
    if (input.baseURL?.trim()) {
      const url = normalizeBaseUrl(input.baseURL);
      if (!url.ok) return { ok: false, problem: 'bad-url', message: url.message };
      baseURL = url.url;
    }
    let apiKey = input.apiKey ?? undefined;
    // A URL the viewer typed reaches what the viewer may reach; the saved URL of a server-wide connection, what its
    // admin may.
    let trusted = viewer.admin;
    // The saved address of a connection the viewer cannot edit (the environment's, a server-wide one): whether it
    // works is theirs to know, where it is and how it fails the admin's.
    let hidden = false;
    if (input.id) {
      const target = await this.target(viewer.owner, input.id);
      if (!baseURL || sameBaseUrl(baseURL, target.baseURL)) {
        baseURL = target.baseURL;
        trusted ||= target.trusted;
        hidden = target.trusted && !viewer.admin;
      }
      if (input.apiKey === undefined) apiKey = this.storedKeyFor(target, baseURL);
    }
    if (!baseURL)
      return {
        ok: false,
        problem: 'bad-url',
        message: "Enter the server's base URL, such as http://localhost:11434/v1.",
      };
    const policy = this.addressPolicy(trusted);
    await this.checkAddress(baseURL, policy);
    const fetch = guardedFetch(policy);
    const result = await listServerModels(baseURL, { apiKey: apiKey || undefined, timeoutMs: LIST_TIMEOUT_MS, fetch });
    if (!result.ok) return hidden ? { ok: false, problem: result.problem, message: HIDDEN_FAILURE } : result;
    return { ok: true, models: await withOllamaCapabilities(baseURL, result.models, { fetch }) };
  }

  /** The environment's connection: everyone's (its key is used for them, never shown). */
  private envTarget(): Target {
    if (!this.envConfigured) throw new ModelRequestError("The server's environment names no model server.");
    return {
      baseURL: this.config.llm.baseURL ?? 'https://api.openai.com/v1',
      apiKey: this.config.llm.apiKey,
      name: ENV_CONNECTION_NAME,
      trusted: true,
    };
  }

  /** The base URL and key of a connection the viewer sees (the environment's included). */
  private async target(owner: OwnerScope, id: string): Promise<Target> {
    if (id === ENV_CONNECTION_ID) return this.envTarget();
    const c = await this.visible(owner, id);
    if (!c) throw new NotFoundError(`Unknown connection id "${id}": pick another model.`);
    let apiKey: string | undefined;
    if (c.apiKeyCipher !== null) {
      try {
        apiKey = this.deps.box().open(c.apiKeyCipher);
      } catch (e) {
        if (isErrorNamed<SecretBoxError>(e, 'SecretBoxError'))
          throw new ModelRequestError(`${c.name}: ${e.message} (Settings → Models → Edit).`);
        throw e;
      }
    }
    return { baseURL: c.baseURL, apiKey, name: c.name, trusted: c.ownerId === null };
  }

  // ---- the models of every connection ----

  /** A connection's model list, kept a little while (the picker opens often; servers change seldom). */
  private listing(id: string, target: Target, refresh: boolean): Promise<ServerModelsResult> {
    const now = Date.now();
    const kept = this.listings.get(id);
    if (kept && !refresh && now - kept.at < LIST_TTL_MS) return kept.result;
    const { baseURL, apiKey } = target;
    const fetch = guardedFetch(this.addressPolicy(target.trusted));
    const result = listServerModels(baseURL, { apiKey, timeoutMs: LIST_TIMEOUT_MS, fetch }).then(async (r) =>
      r.ok ? { ok: true as const, models: await withOllamaCapabilities(baseURL, r.models, { fetch }) } : r,
    );
    this.listings.set(id, { at: now, result });
    return result;
  }

  /** What the last listing of a connection said of one of its models, without asking the server again. */
  private async cachedModel(id: string, model: string): Promise<ServerModel | undefined> {
    const kept = this.listings.get(id);
    const result = kept ? await kept.result : undefined;
    return result?.ok ? result.models.find((m) => m.id === model) : undefined;
  }

  /** Every model of every connection the viewer sees, grouped by connection: the environment's first, then the
   *  page's, then this machine's GGUF files. A connection that cannot be listed says why. */
  async listModels(viewer: ModelViewer, opts: { refresh?: boolean } = {}): Promise<ModelGroup[]> {
    const refresh = Boolean(opts.refresh);
    const groups: Promise<ModelGroup>[] = [];
    const told = (group: ModelGroup) => (viewer.admin ? group : withoutDetails(group));
    if (this.envConfigured) groups.push(this.envGroup(refresh).then(told));
    for (const c of await this.deps.store.listConnections(viewer.owner)) {
      const group = this.savedGroup(viewer.owner, c, refresh);
      groups.push(this.mayEdit(viewer, c) ? group : group.then(told));
    }
    groups.push(this.localGroup());
    return (await Promise.all(groups)).filter((g) => g.source !== 'local' || g.models.length > 0);
  }

  private async envGroup(refresh: boolean): Promise<ModelGroup> {
    const listed = await this.listing(ENV_CONNECTION_ID, this.envTarget(), refresh);
    const learned = await this.deps.store.learnedCapabilities(ENV_CONNECTION_ID);
    // OPENAI_MODEL is offered even when the server cannot list its models.
    const names = [this.envModel(), ...(listed.ok ? listed.models.map((m) => m.id) : [])];
    const hints = new Map(listed.ok ? listed.models.map((m) => [m.id, m.hints]) : []);
    return {
      connectionId: ENV_CONNECTION_ID,
      name: ENV_CONNECTION_NAME,
      source: 'environment',
      models: [...new Set(names)].map((name) => ({
        id: modelId(ENV_CONNECTION_ID, name),
        name,
        capabilities: resolveCapabilities(name, { server: hints.get(name), learned: learned[name] }),
      })),
      ...(listed.ok ? {} : { problem: listed.message }),
    };
  }

  private async savedGroup(owner: OwnerScope, c: StoredConnection, refresh: boolean): Promise<ModelGroup> {
    const group: ModelGroup = { connectionId: c.id, name: c.name, source: 'page', models: [] };
    let target;
    try {
      target = await this.target(owner, c.id);
    } catch (e) {
      return { ...group, problem: e instanceof Error ? e.message : String(e) };
    }
    const listed = await this.listing(c.id, target, refresh);
    if (!listed.ok) return { ...group, problem: listed.message };
    const learned = await this.deps.store.learnedCapabilities(c.id);
    group.models = listed.models.map((m) => this.option(c, m, learned[m.id]));
    if (!group.models.length) group.problem = `${c.name} lists no models.`;
    return group;
  }

  private option(c: StoredConnection, m: ServerModel, learned?: CapabilityHints): ModelOption {
    return {
      id: modelId(c.id, m.id),
      name: m.id,
      capabilities: resolveCapabilities(m.id, { user: userHints(c, m.id), server: m.hints, learned }),
    };
  }

  private async localGroup(): Promise<ModelGroup> {
    const { models } = await listLocalModels(this.config.localModels.dir);
    return {
      connectionId: LOCAL_CONNECTION_ID,
      name: LOCAL_CONNECTION_NAME,
      source: 'local',
      models: models
        .filter((m) => m.summary)
        .map((m) => ({
          id: modelId(LOCAL_CONNECTION_ID, m.name),
          name: m.name,
          capabilities: localCapabilities(m),
        })),
    };
  }

  /** The model a conversation without one gets: OPENAI_MODEL when the environment names a server, else the first
   *  model of the first connection that lists one, else the first GGUF file; undefined when there is none. */
  async defaultModelId(owner: OwnerScope): Promise<string | undefined> {
    return (await this.defaultModel(owner)).id;
  }

  /** The default model, or why the connections there are offer none (each one's problem). */
  private async defaultModel(owner: OwnerScope): Promise<{ id?: string; problems: string[] }> {
    if (this.envConfigured) return { id: modelId(ENV_CONNECTION_ID, this.envModel()), problems: [] };
    const problems: string[] = [];
    for (const c of await this.deps.store.listConnections(owner)) {
      const group = await this.savedGroup(owner, c, false);
      if (group.models[0]) return { id: group.models[0].id, problems };
      const problem = group.problem;
      if (problem) problems.push(problem.startsWith(c.name) ? problem : `“${c.name}”: ${problem}`);
    }
    return { id: (await this.localGroup()).models[0]?.id, problems };
  }

  /** Is any model there to pick (without asking any server)? */
  async anyConfigured(owner: OwnerScope): Promise<boolean> {
    if (this.envConfigured) return true;
    if ((await this.deps.store.listConnections(owner)).length) return true;
    return (await this.localGroup()).models.length > 0;
  }

  /**
   * What it takes to call model `id` (the default model when none is given), for the viewer. `name` replaces the
   * model name on the same connection (a replay with another model). Throws a ModelRequestError saying what to do
   * when the model cannot be had.
   */
  async resolve(owner: OwnerScope, id: string | undefined, name?: string): Promise<ResolvedModel> {
    const fallback = id === undefined ? await this.defaultModel(owner) : undefined;
    const chosen = id ?? fallback?.id;
    if (!chosen)
      throw new ModelRequestError(
        fallback?.problems.length
          ? `No connected server offers a model now: ${fallback.problems.join(' ')} Check the connection ` +
              '(Settings → Models), or pick a local model.'
          : 'No model is set up yet: connect a server or pick a local model (Settings → Models).',
      );
    const ref = parseModelId(chosen);
    if (!ref) throw new ModelRequestError(`"${chosen}" is not a model id (connection/model).`);
    const modelName = name?.trim() || ref.name;
    const { llm } = this.config;
    const common = {
      maxRetries: llm.maxRetries,
      requestTimeoutMs: llm.requestTimeoutMs,
      idleTimeoutMs: llm.idleTimeoutMs,
    };
    const { store } = this.deps;
    const learnFor = (connectionId: string) => () => store.learnCapabilities(connectionId, modelName, { tools: false });

    if (ref.connectionId === LOCAL_CONNECTION_ID) {
      const file = resolveLocalModel(this.config.localModels.dir, ref.name);
      const entry = (await listLocalModels(this.config.localModels.dir)).models.find((m) => m.file === file);
      if (!entry) throw new ModelRequestError(`${ref.name} is no longer in the models folder: pick another model.`);
      if (!entry.summary) throw new ModelRequestError(`${ref.name} cannot be used: ${entry.problem}`);
      const { dir: _dir, ...load } = this.config.localModels;
      return {
        id: chosen,
        name: ref.name,
        connectionId: LOCAL_CONNECTION_ID,
        connectionName: LOCAL_CONNECTION_NAME,
        local: true,
        config: {
          local: { file, ...load },
          maxInputTokens: llm.maxInputTokens,
          connection: LOCAL_CONNECTION_NAME,
          // What llama.cpp runs it with: LOCAL_MODEL_CONTEXT_SIZE, at most what the GGUF header says it was trained for.
          contextLength: Math.min(load.contextSize, entry.summary.contextLength ?? load.contextSize),
        },
        capabilities: localCapabilities(entry),
        learnToolsRefused: async () => {},
      };
    }

    const target = await this.target(owner, ref.connectionId);
    const saved =
      ref.connectionId === ENV_CONNECTION_ID ? undefined : await store.getConnection(owner, ref.connectionId);
    const listed = await this.cachedModel(ref.connectionId, modelName);
    const server = listed?.hints;
    const rates = saved ? ratesFor(saved.rates, modelName) : llm.rates;
    // The server's own word on its context length first (its model list), else what the user set.
    const contextLength = listed?.contextLength ?? rates.contextLength;
    const learned = (await store.learnedCapabilities(ref.connectionId))[modelName];
    return {
      id: chosen,
      name: modelName,
      connectionId: ref.connectionId,
      connectionName: target.name,
      local: false,
      config: {
        ...common,
        model: modelName,
        baseURL: target.baseURL,
        apiKey: target.apiKey,
        addressPolicy: this.addressPolicy(target.trusted),
        maxInputTokens: llm.maxInputTokens,
        connection: target.name,
        ...(rates.pricing ? { pricing: rates.pricing } : {}),
        ...(contextLength ? { contextLength } : {}),
      },
      capabilities: resolveCapabilities(modelName, {
        user: saved ? userHints(saved, modelName) : undefined,
        server,
        learned,
      }),
      learnToolsRefused: learnFor(ref.connectionId),
    };
  }

  // ---- images (image_gen) ----

  /**
   * The images endpoint the owner's runs make images with: the connection `prefer` names first (the conversation's
   * model's), then the environment's (OPENAI_IMAGE_MODEL), then the owner's other connections in order, each when it
   * names an image model (a model marked imageGeneration). Undefined when none has one. Its requests go under the
   * connection's address policy, as its chat requests do; its key goes only to its own URL.
   */
  async imageEndpoint(owner: OwnerScope, prefer?: string): Promise<ImageEndpoint | undefined> {
    const candidates: { id: string; model: string }[] = [];
    const envModel = this.config.llm.imageModel;
    if (this.envConfigured && envModel) candidates.push({ id: ENV_CONNECTION_ID, model: envModel });
    for (const c of await this.deps.store.listConnections(owner)) {
      const model = imageModelOf(c.capabilities);
      if (model) candidates.push({ id: c.id, model });
    }
    candidates.sort((a, b) => Number(b.id === prefer) - Number(a.id === prefer));
    for (const { id, model } of candidates) {
      let target: Target;
      try {
        target = await this.target(owner, id);
      } catch {
        continue; // a key that cannot be opened: the next connection
      }
      return {
        baseURL: target.baseURL,
        ...(target.apiKey ? { apiKey: target.apiKey } : {}),
        model,
        connection: target.name,
        addressPolicy: this.addressPolicy(target.trusted),
      };
    }
    return undefined;
  }

  // ---- servers on this machine ----

  /** The loopback scan's servers, for nobody in particular (the server starts one): the last scan's when it began
   *  less than SCAN_REUSE_MS ago (one in progress included), else a new one; `again` always scans. */
  startScan(again = false): Promise<FoundServer[]> {
    const now = (this.deps.now ?? Date.now)();
    if (again || !this.scanning || now - this.scanning.at >= SCAN_REUSE_MS) {
      const { scanTargets, scanTimeoutMs } = this.config.models;
      this.scanning = { at: now, found: scanLocalServers(scanTargets, { timeoutMs: scanTimeoutMs }) };
    }
    return this.scanning.found;
  }

  /** The loopback scan: the last one's result when it is a few seconds old at most, else a new one (`again`: now).
   *  The admin's only: this machine's servers are the server's network, which other users neither see nor reach. */
  async scan(viewer: ModelViewer, again = false): Promise<FoundServerView[]> {
    if (!viewer.admin) return [];
    const found = await this.startScan(again);
    const connections = await this.connections(viewer);
    return found.map((f) => {
      const connectedAs = connections.find((c) => sameServer(c.baseURL, f.baseURL))?.id;
      return { ...f, models: f.models.map((m) => m.id), ...(connectedAs ? { connectedAs } : {}) };
    });
  }

  /** "Use <server>": a connection to a server the scan found (the one that reaches it already, if any), and its
   *  first model's id. Only what the scan found can be used this way (loopback, known ports). */
  async useFound(viewer: ModelViewer, port: number): Promise<{ connection: ConnectionView; modelId?: string }> {
    if (!viewer.admin)
      throw new ConnectionRefusedError(
        'found-admin-only',
        'Only the admin may use the servers found on this machine.',
        403,
      );
    const found = (await this.scan(viewer)).find((f) => f.port === port);
    if (!found) throw new ModelRequestError(`Nothing was found on port ${port} of this machine: scan again.`);
    const connections = await this.connections(viewer);
    const connection =
      connections.find((c) => c.id === found.connectedAs) ??
      (await this.addConnection(viewer, { name: found.name, baseURL: found.baseURL }).catch((e: unknown) => {
        // Gone since the scan (a few seconds old): there is nothing to save anyway from here.
        const code = codedOf(e)?.code;
        if (code === 'connection-unreachable' || code === 'connection-http' || code === 'not-openai')
          throw new ModelRequestError(`${found.name} no longer answers as it did when it was found: scan again.`);
        throw e;
      }));
    const first = found.models[0];
    return { connection, ...(first ? { modelId: modelId(connection.id, first) } : {}) };
  }
}

/** Prices and context lengths as the page sent them: model names of a sane length, prices and lengths in range. */
function checkRates(rates: Record<string, ModelRates>): void {
  const entries = Object.entries(rates);
  if (entries.length > MAX_RATED_MODELS)
    throw new ModelRequestError(`Prices can be set for at most ${MAX_RATED_MODELS} models of a connection.`);
  for (const [model, r] of entries) {
    if (!model.trim() || model.length > MAX_MODEL_NAME)
      throw new ModelRequestError(`A model name has 1 to ${MAX_MODEL_NAME} characters.`);
    for (const price of r.pricing ? [r.pricing.inputPerMTok, r.pricing.outputPerMTok] : [])
      if (!Number.isFinite(price) || price < 0 || price > MAX_PRICE)
        throw new ModelRequestError(`${model}: a price per million tokens is a number from 0 to ${MAX_PRICE}.`);
    const n = r.contextLength;
    if (n !== undefined && (!Number.isInteger(n) || n < 1 || n > MAX_CONTEXT))
      throw new ModelRequestError(`${model}: a context length is a whole number of tokens from 1 to ${MAX_CONTEXT}.`);
  }
}

/** What the user set for one model of a connection: the connection-wide setting, then the model's own. */
function userHints(c: StoredConnection, model: string): CapabilityHints {
  return { ...c.capabilities['*'], ...c.capabilities[model] };
}

/** A GGUF's: native tools when its chat template renders them (node-llama-cpp follows it), no images. */
function localCapabilities(m: LocalModelFile): ModelCapabilities {
  return resolveCapabilities(m.name, { server: { tools: Boolean(m.summary?.templateHasTools), vision: false } });
}

/** Why a save was refused when the server's model list could not be had (a ConnectionRefusedError, 400). */
function probeRefusal(result: Extract<ServerModelsResult, { ok: false }>, baseURL: string): ConnectionRefusedError {
  const host = new URL(baseURL).host;
  const anyway = ' If the server is only down for now, save it anyway.';
  switch (result.problem) {
    case 'not-openai':
      return new ConnectionRefusedError('not-openai', result.message, 400, { url: baseURL });
    case 'unauthorized':
      return new ConnectionRefusedError('connection-unauthorized', `${result.message} Or save it anyway.`, 400, {
        host,
        status: result.status ?? 401,
      });
    case 'http':
      return new ConnectionRefusedError('connection-http', `${result.message} Check the base URL.${anyway}`, 400, {
        host,
        status: result.status ?? 500,
      });
    default: // unreachable or timed out (a URL that is no URL was refused before)
      return new ConnectionRefusedError('connection-unreachable', result.message + anyway, 400, { host });
  }
}

/** The refusal of a stored key sent to another URL. */
function keyNeeded(name: string): ConnectionRefusedError {
  return new ConnectionRefusedError(
    'connection-key-needed',
    `${name}: a saved API key is sent only to the base URL it was saved with. Enter the key again for the new URL ` +
      '(or remove the key).',
    400,
    { name },
  );
}

/** The same base URL, however it was typed (a trailing slash, the host's case, a default port). */
/** What someone other than the admin is told of a server-wide connection's failure: that it failed, never its
 *  address or the server's details (they name the host, the port and the path; docs/accounts.md). */
const HIDDEN_FAILURE = 'This connection cannot list its models now; the admin can see why.';

function withoutDetails(group: ModelGroup): ModelGroup {
  return group.problem ? { ...group, problem: HIDDEN_FAILURE } : group;
}

function sameBaseUrl(a: string, b: string): boolean {
  const x = normalizeBaseUrl(a);
  const y = normalizeBaseUrl(b);
  return x.ok && y.ok && x.url === y.url;
}

function sameServer(a: string, b: string): boolean {
  const key = (u: string) => {
    try {
      const url = new URL(u);
      const host = url.hostname === 'localhost' || url.hostname === '[::1]' ? '127.0.0.1' : url.hostname;
      return `${url.protocol}//${host}:${url.port}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return u;
    }
  };
  return key(a) === key(b);
}
