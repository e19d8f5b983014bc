// Accounts over HTTP for the security suite: creating an account and signing in as the pages do (real sessions,
// real cookies), calling routes and server actions as a user, and reading POST /api/chat's event stream, whole or up
// to a point (a run paused for a decision must stay connected: closing the stream stops it).
import http from 'node:http';
import type { ActionResult } from '../../../lib/chat/page';
import { actionValue, callAction, request, type Answer, type App } from './app';

export interface Session {
  email: string;
  /** The session cookie, as the browser sends it back. */
  cookie: string;
}

export const PASSWORD = 'correct horse battery staple';

/** The session cookie an answer sets (better-auth's `agent-studio.session_token`). */
function sessionCookie(answer: Answer): string {
  const set = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
  const cookie = set.find((c) => c.includes('session_token='));
  if (!cookie) throw new Error(`no session cookie in the answer (HTTP ${answer.status}): ${answer.text.slice(0, 200)}`);
  return cookie.split(';')[0]!;
}

/** POST /api/auth/… from the app's own page. */
export function authPost(app: App, route: string, body: unknown, headers: Record<string, string> = {}) {
  return request(app.url, `/api/auth/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url, ...headers },
    body: JSON.stringify(body),
  });
}

export async function signUp(app: App, email: string, opts: { invite?: string } = {}): Promise<Session> {
  const answer = await authPost(app, 'sign-up/email', { email, password: PASSWORD, invite: opts.invite });
  if (answer.status !== 200) throw new Error(`sign-up of ${email}: HTTP ${answer.status} ${answer.text}`);
  return { email, cookie: sessionCookie(answer) };
}

export async function signIn(app: App, email: string, password = PASSWORD): Promise<Session> {
  const answer = await authPost(app, 'sign-in/email', { email, password });
  if (answer.status !== 200) throw new Error(`sign-in of ${email}: HTTP ${answer.status} ${answer.text}`);
  return { email, cookie: sessionCookie(answer) };
}

/** A request's headers as the user, from the app's own page. */
export function as(app: App, user: Session, headers: Record<string, string> = {}): Record<string, string> {
  return { cookie: user.cookie, origin: app.url, ...headers };
}

/** The page each action file's actions are used on (Next answers an action's 401/403 as the page that uses it). */
const PAGE_OF: Record<string, string> = {
  ...Object.fromEntries(['createApiKey', 'listApiKeys', 'revokeApiKey'].map((n) => [n, '/account'])),
  ...Object.fromEntries(
    [
      'listUsers',
      'setUserDisabled',
      'deleteUser',
      'resetUserPassword',
      'updateServerSettings',
      'createInvite',
      'listInvites',
      'revokeInvite',
      // Tools and integrations: the MCP config and web search are set up on the admin page.
      'readMcpConfigText',
      'saveMcpConfigText',
      'saveWebSearchSetting',
    ].map((n) => [n, '/admin']),
  ),
};

/** The page that uses an action (its 401/403 come as that page's). */
export function pageOf(name: string): string {
  return PAGE_OF[name] ?? '/';
}

/** A server action called as the user does, from the page that uses it. */
export function actionCall(app: App, user: Session | undefined, name: string, args: unknown[], headers = {}) {
  return callAction(app, name, args, { ...(user ? { cookie: user.cookie } : {}), ...headers }, pageOf(name));
}

/** A server action called as the user; its plain JSON value. */
export async function actionAs<T>(app: App, user: Session, name: string, args: unknown[]): Promise<T> {
  return actionValue<T>(await actionCall(app, user, name, args));
}

/** An action answering ActionResult, called as the user. */
export function resultAs<T>(app: App, user: Session, name: string, args: unknown[]): Promise<ActionResult<T>> {
  return actionAs<ActionResult<T>>(app, user, name, args);
}

export interface ChatStream {
  status: number;
  ids?: { conversationId: string; turnId: string; runId: string };
  /** The feed's events so far. */
  events: { type: string; [k: string]: unknown }[];
  /** The error's message when the request was refused. */
  error?: string;
  /** Its code, when it has one (the page says it in its language by it). */
  code?: string;
  /** Closes the connection (which stops the run). */
  close(): void;
}

/**
 * POST /api/chat with `auth` (a session or `Authorization: Bearer`), read until `until` says so (default: run-end)
 * or the answer ends. The connection stays open when stopped early, so a paused run goes on waiting.
 */
export function chat(
  app: App,
  auth: { cookie: string } | { bearer: string },
  body: Record<string, unknown>,
  until: (e: { type: string }) => boolean = (e) => e.type === 'run-end',
): Promise<ChatStream> {
  const url = new URL('/api/chat', app.url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if ('cookie' in auth) Object.assign(headers, { cookie: auth.cookie, origin: app.url });
  else headers.authorization = `Bearer ${auth.bearer}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, agent: false },
      (res) => {
        const out: ChatStream = { status: res.statusCode ?? 0, events: [], close: () => req.destroy() };
        let buffer = '';
        let done = false;
        const finish = () => {
          if (!done) {
            done = true;
            resolve(out);
          }
        };
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          if (out.status !== 200) return;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').find((l) => l.startsWith('data: '));
            if (!data) continue;
            const value = JSON.parse(data.slice(6)) as { type: string };
            if (block.startsWith('event: turn')) out.ids = value as unknown as ChatStream['ids'];
            else {
              out.events.push(value);
              if (until(value)) finish();
            }
          }
        });
        res.on('end', () => {
          if (out.status !== 200) {
            const { error } = JSON.parse(buffer || '{}') as { error?: { message: string; code?: string } };
            out.error = error?.message;
            if (error?.code) out.code = error.code;
          }
          finish();
        });
        res.on('error', () => finish());
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
