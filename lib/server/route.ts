// guardRoute: every route handler behind the request checks (lib/http/check.ts: Host, client, Origin) and with its
// user resolved (lib/auth: a session, an API key, or the single user when accounts are off): the handler is given
// the Viewer, whose owner scope is what every store call of the use cases takes. A request with nobody to act for is
// answered 401 (403 for a disabled account), and an admin-only route answers 403 to other users. Route handlers are
// not behind proxy.ts when they take request bodies, so each one is wrapped: test/request-coverage.test.ts proves none
// is left out, and that each one resolves the user (or is one of the few sign-in routes that cannot).
import { checkRequest, type RequestKind } from '../http/check';
import { requestPolicy } from '../http/policy';
import { limitResponse, problem, refusalResponse } from '../http/respond';
import { isViewer, type Viewer } from '../auth/viewer';
import { appContext } from './context';

export type Access = 'user' | 'admin' | 'public';

const GUARDED = Symbol.for('agent-studio.guarded-route');

type Handler<C> = (request: Request, context: C) => Response | Promise<Response>;
type UserHandler<C> = (request: Request, context: C, viewer: Viewer) => Response | Promise<Response>;

/** An error's own HTTP status (404 for what is not the caller's, 403 for a tool not allowed, 400 for bad input),
 *  else `fallback`. */
export function statusOf(e: unknown, fallback: number): number {
  const status = (e as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : fallback;
}

function mark<C>(handler: Handler<C>, kind: RequestKind, access: Access): Handler<C> {
  Object.defineProperty(handler, GUARDED, { value: { kind, access } });
  return handler;
}

function wrap<C>(kind: RequestKind, body: Handler<C>): Handler<C> {
  return async (request, context) => {
    const policy = requestPolicy();
    const refusal = checkRequest(request, policy, kind);
    if (refusal) return refusalResponse(refusal, request, policy.publicOrigin);
    try {
      return await body(request, context);
    } catch (e) {
      const answer = limitResponse(e);
      if (answer) return answer;
      throw e;
    }
  };
}

/** A route handler for a signed-in user (`access: 'admin'`: an admin). `answer` reshapes every response the route
 *  gives, the guard's refusals included (the /v1 routes answer errors in OpenAI's shape). */
export function guardRoute<C>(
  handler: UserHandler<C>,
  opts: {
    kind?: RequestKind;
    access?: 'user' | 'admin';
    answer?: (response: Response) => Response | Promise<Response>;
  } = {},
): Handler<C> {
  const kind = opts.kind ?? 'api';
  const access = opts.access ?? 'user';
  const guarded = wrap<C>(kind, async (request, context) => {
    const viewer = await (await appContext()).viewer(request.headers);
    if (!isViewer(viewer))
      return problem(
        viewer.status,
        viewer.message,
        viewer.status === 401 ? { 'www-authenticate': 'Bearer realm="agent-studio"' } : {},
      );
    if (access === 'admin' && !viewer.admin) return problem(403, 'Only the admin may do this.');
    return handler(request, context, viewer);
  });
  const answer = opts.answer;
  return mark(answer ? async (request, context) => answer(await guarded(request, context)) : guarded, kind, access);
}

/** A route handler that runs before anyone is signed in: the sign-in forms and the accounts library's own routes,
 *  which establish the user themselves. Only those may use it (the coverage test lists them). */
export function publicRoute<C>(handler: Handler<C>, kind: RequestKind): Handler<C> {
  return mark(wrap(kind, handler), kind, 'public');
}

/** How a handler was guarded, or undefined when it was not (the coverage test). */
export function guardedAs(handler: unknown): { kind: RequestKind; access: Access } | undefined {
  return typeof handler === 'function'
    ? (handler as unknown as Record<symbol, { kind: RequestKind; access: Access }>)[GUARDED]
    : undefined;
}
