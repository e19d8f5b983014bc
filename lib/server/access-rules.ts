// Who may use each way into the app: one rule per route handler (by method and path, as app/ lays it out) and per
// server action (by its exported name), read by the one access check (lib/server/access.ts) and nothing else. A new
// route or action needs its line here before it can answer anyone (guardRoute and guardAction take only names listed
// here), test/request-coverage.test.ts fails on a line without an entry point or an entry point without a line, and
// docs/security.md's matrix is generated from this table (npm run access-matrix).
import type { AccessRule } from './access';

const user = (what: string, more: Partial<AccessRule> = {}): AccessRule => ({ who: 'user', what, ...more });
const owned = (what: string, more: Partial<AccessRule> = {}): AccessRule => user(what, { byId: true, ...more });
const admin = (what: string): AccessRule => ({ who: 'admin', what });
const open = (what: string): AccessRule => ({ who: 'public', what });

const wrongMethod = user('OpenAI API: a method the path does not answer (405)', { key: 'read' });
const notServed = user('OpenAI API: a path it does not serve (404)', { key: 'read' });
const methods = user('OpenAI API: the methods the path answers (Allow)', { key: 'read' });

export const ROUTE_RULES = {
  'POST /api/sign-in': open('ACCESS_TOKEN sign-in form'),
  'GET /api/auth/[...all]': open('accounts: session state, OpenID Connect callback'),
  'POST /api/auth/[...all]': open('accounts: create one, sign in and out'),
  'GET /api/health': user('is the server up, is a model set', { key: 'read' }),
  'POST /api/chat': owned('start a run (event stream)', { key: 'run' }),
  'GET /api/runs/[runId]/events': owned('a run’s events', { key: 'read' }),
  'GET /api/files': owned('a conversation’s uploads', { key: 'read' }),
  'POST /api/files': owned('upload a file', { key: 'run' }),
  'GET /api/files/[id]': owned('one upload’s state', { key: 'read' }),
  'DELETE /api/files/[id]': owned('remove an upload', { key: 'run' }),
  'GET /api/images/[conversationId]/[hash]': owned('an image of a conversation', { key: 'read' }),
  'GET /api/artifacts/[conversationId]/[...path]': owned('a file code wrote', { key: 'read' }),
  'POST /api/local-models': admin('upload a GGUF model'),
  'GET /api/local-models/downloads': admin('model download progress'),
  'GET /v1/models': user('OpenAI API: the agents as models', { key: 'read' }),
  'GET /v1/models/[model]': owned('OpenAI API: one agent as a model', { key: 'read' }),
  'POST /v1/chat/completions': owned('OpenAI API: run an agent', { key: 'run' }),
  'OPTIONS /v1/models': methods,
  'OPTIONS /v1/models/[model]': methods,
  'OPTIONS /v1/chat/completions': methods,
  // What /v1 does not serve: a 404 or 405 in OpenAI's shape, to whoever may use /v1 at all (401 before it).
  'GET /v1/chat/completions': wrongMethod,
  'PUT /v1/chat/completions': wrongMethod,
  'PATCH /v1/chat/completions': wrongMethod,
  'DELETE /v1/chat/completions': wrongMethod,
  'POST /v1/models': wrongMethod,
  'PUT /v1/models': wrongMethod,
  'PATCH /v1/models': wrongMethod,
  'DELETE /v1/models': wrongMethod,
  'POST /v1/models/[model]': wrongMethod,
  'PUT /v1/models/[model]': wrongMethod,
  'PATCH /v1/models/[model]': wrongMethod,
  'DELETE /v1/models/[model]': wrongMethod,
  'GET /v1/[[...path]]': notServed,
  'POST /v1/[[...path]]': notServed,
  'PUT /v1/[[...path]]': notServed,
  'PATCH /v1/[[...path]]': notServed,
  'DELETE /v1/[[...path]]': notServed,
  'OPTIONS /v1/[[...path]]': notServed,
} satisfies Record<string, AccessRule>;

export const ACTION_RULES = {
  // account.ts: the user's own credentials, from the page only
  listApiKeys: user('list my API keys'),
  createApiKey: user('make an API key'),
  revokeApiKey: owned('revoke an API key'),
  // admin.ts
  listUsers: admin('list the users'),
  setUserDisabled: admin('disable or enable a user'),
  deleteUser: admin('delete a user and their data'),
  resetUserPassword: admin('set a user’s password'),
  updateServerSettings: admin('set sign-up mode, tools for users'),
  createInvite: admin('make an invite link'),
  listInvites: admin('list invite links'),
  revokeInvite: admin('revoke one'),
  // agents.ts
  listAgents: user('list my saved agents and the plugins’'),
  saveAgent: owned('save or edit an agent'),
  deleteAgent: owned('delete an agent'),
  listUploadedDocuments: user('my uploads, to give an agent'),
  exportAgentFile: owned('export an agent'),
  importAgentFile: user('import an agent'),
  draftAgentGroup: user('draft a group of agents with GroupChatCreator (a model call)'),
  saveAgentGroup: user('save a drafted group as my agents'),
  // chat.ts
  sendMessage: owned('send a message (starts a run)'),
  regenerate: owned('regenerate an answer'),
  editAndResend: owned('edit a message and resend'),
  simulateUserTurn: owned('a simulated user’s next message (Simulate a user)'),
  stopRun: owned('stop a run'),
  followRun: owned('follow a run in progress'),
  listConversations: user('list and search my conversations'),
  conversationListVersion: user('whether my conversation list changed (a window in view follows it)'),
  loadConversation: owned('open a conversation'),
  loadTurnAnswer: owned('an earlier answer of a turn (‹ 2 / 3 ›)'),
  settledTitle: owned('a conversation’s title once the model made it'),
  renameConversation: owned('rename one'),
  deleteConversation: owned('delete one'),
  saveSettings: owned('change a conversation’s settings'),
  appInfo: user('the page’s start-up data'),
  // documents.ts
  uploadLimit: user('the upload size limit'),
  startConversation: user('a conversation for files sent first'),
  documentPage: owned('a page of one of my documents (a citation)'),
  // inspect.ts
  loadRunForInspection: owned('a run in the inspector'),
  loadIterationRequest: owned('one model request of a run'),
  // integrations.ts
  integrationsStatus: user('MCP servers’ and web tools’ state'),
  readMcpConfigText: admin('read the MCP configuration'),
  saveMcpConfigText: admin('save it (asks the password)'),
  saveWebSearchSetting: admin('set web search (provider, URL, key)'),
  // models.ts
  listModels: user('the models to pick'),
  listConnections: user('model connections'),
  addConnection: user('add a connection'),
  updateConnection: owned('change a connection'),
  removeConnection: owned('remove a connection'),
  testConnection: owned('test a connection'),
  scanServers: user('model servers on this machine (an empty list for all but the admin)'),
  useFoundServer: admin('connect to one of them'),
  localModels: admin('the GGUF files'),
  startDownload: admin('download a GGUF file'),
  stopDownload: admin('stop a download'),
  dismissDownload: admin('dismiss a finished download'),
  // replay.ts
  listTurnRuns: owned('a message’s runs'),
  compareTurnRuns: owned('compare two runs'),
  replaySource: owned('what a replay can change'),
  replayRun: owned('replay a run from a step'),
  continueRun: owned('continue a run past the model-call limit'),
  decideTool: owned('decide a paused tool call'),
  // runs.ts
  loadRunsView: user('the Runs page'),
} satisfies Record<string, AccessRule>;

export type RouteEntry = keyof typeof ROUTE_RULES;
export type ActionEntry = keyof typeof ACTION_RULES;

/** What a page needs: a signed-in user (never an API key: pages are for browsers), or the admin. */
export const PAGE_RULES = {
  user: user('a page'),
  admin: admin('the Admin page'),
} satisfies Record<string, AccessRule>;
