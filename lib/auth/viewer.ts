// Who is asking: the user a request acts for, made once per request by the composition root (lib/server/context.ts)
// and handed to every use case. It is an Actor (lib/chat/actor.ts): its owner scope is what the store lets it see,
// and its tool gate is what the admin allows users (admins may use every tool).
import type { Actor } from '../chat/actor';
import type { KeyScope } from './api-keys';
import { clientKey } from '../http/client';
import type { HeaderBag } from '../http/peer';
import type { OwnerScope } from '../store/owner';
import type { ServerSettings } from '../store/types';

/** single: loopback without AUTH=required, one user and no sign-in; token: ACCESS_TOKEN, one user; accounts. */
export type AccessMode = 'single' | 'token' | 'accounts';

export interface Viewer extends Actor {
  /** The owner's id: an account's id, or the built-in local owner's (the first admin's once one exists). */
  readonly userId: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly admin: boolean;
  /** local: no accounts (single user); token: ACCESS_TOKEN; session: signed in on the page; api-key: a bearer key. */
  readonly via: 'local' | 'token' | 'session' | 'api-key';
  /** With `via: 'api-key'`: what the key may do (lib/server/access.ts checks it against each entry point's rule). */
  readonly keyScope?: KeyScope;
}

/** A request with no user to act for: 401 (sign in, or a revoked or unknown key) or 403 (a disabled account). */
export interface ViewerRefusal {
  status: 401 | 403;
  message: string;
}

export function isViewer(v: Viewer | ViewerRefusal): v is Viewer {
  return 'userId' in v;
}

/** Tools the admin enables for the other users, and the setting that does it. */
const GATED_TOOLS: Record<string, keyof ServerSettings['userTools']> = {
  code_interpreter: 'codeInterpreter',
  // Runs Python in code_interpreter's sandbox (TIRMathAgent's executor), so the same switch allows it.
  python_executor: 'codeInterpreter',
  web_search: 'web',
  web_extractor: 'web',
  // They spend the server's own keys (AMAP_TOKEN, SERPAPI_IMAGE_SEARCH_KEY) on the web, as web_search does.
  amap_weather: 'web',
  image_search: 'web',
};

export function isGatedTool(name: string): boolean {
  return name in GATED_TOOLS;
}

export function makeViewer(input: {
  owner: OwnerScope;
  email?: string | null;
  name?: string | null;
  admin: boolean;
  via: Viewer['via'];
  keyScope?: KeyScope;
  userTools: ServerSettings['userTools'];
}): Viewer {
  const { owner, admin, userTools } = input;
  return {
    owner,
    userId: owner.ownerId,
    email: input.email ?? null,
    name: input.name ?? null,
    admin,
    via: input.via,
    ...(input.via === 'api-key' && input.keyScope ? { keyScope: input.keyScope } : {}),
    toolRefusal(tool: string): string | undefined {
      const setting = GATED_TOOLS[tool];
      if (admin || !setting || userTools[setting]) return undefined;
      return `The tool ${tool} is not enabled for users on this server; the admin can turn it on (Admin, Tools for users).`;
    },
  };
}

/** Whom a request's runs and uploads count against (lib/http/rate-limit.ts): the signed-in user, wherever they
 *  connect from; without accounts, the client's address, as before. */
export function limitKey(viewer: Viewer, headers: HeaderBag): string {
  return viewer.via === 'session' || viewer.via === 'api-key' ? `user:${viewer.userId}` : clientKey(headers);
}
