// guardRoute: every route handler behind the request checks (lib/http/check.ts: Host, client, Origin) and the one
// access check (lib/server/access.ts) with the rule its entry point declares (lib/server/access-rules.ts): the handler
// is given the Viewer, whose owner scope is what every store call of the use cases takes. A request with nobody to act
// for is answered 401 (403 for a disabled account), one the rule does not allow 403 (an API key where keys may not
// go, or of too small a scope; a user on an admin's route). A handler's typed errors are answered with their own
// status (read from the error's fields, whatever bundle made it), anything else as a 500 whose details stay in the
// server log. Route handlers are not behind proxy.ts when they take request bodies, so each one is wrapped:
// test/request-coverage.test.ts proves none is left out and that each names its own entry point.
import { appConfig } from './app-config';
import { checkRequest, type RequestKind } from '../http/check';
import { requestPolicy } from '../http/policy';
import { errorResponse, problem, refusalResponse } from '../http/respond';
import { NO_API_KEY } from '../auth/api-keys';
import type { Viewer } from '../auth/viewer';
import { authorize, isRefusal, type AccessRule } from './access';
import { ROUTE_RULES, type RouteEntry } from './access-rules';
import { appContext } from './context';

export { statusOf } from '../protocol/errors';

const GUARDED = Symbol.for('agent-studio.guarded-route');

type Handler<C> = (request: Request, context: C) => Response | Promise<Response>;
type UserHandler<C> = (request: Request, context: C, viewer: Viewer) => Response | Promise<Response>;

/** How a handler was guarded: its kind of request, its entry point and that entry point's rule. */
export interface Guarded {
  kind: RequestKind;
  entry: RouteEntry;
  rule: AccessRule;
}

function mark<C>(handler: Handler<C>, guarded: Guarded): Handler<C> {
  Object.defineProperty(handler, GUARDED, { value: guarded });
  return handler;
}

function wrap<C>(entry: RouteEntry, kind: RequestKind, body: Handler<C>): Handler<C> {
  return async (request, context) => {
    const policy = requestPolicy(appConfig().http);
    const refusal = checkRequest(request, policy, kind);
    if (refusal) return refusalResponse(refusal, request, policy.publicOrigin);
    try {
      return await body(request, context);
    } catch (e) {
      return errorResponse(e, entry);
    }
  };
}

/** A route handler for the entry point `entry` (e.g. 'GET /api/files/[id]'), let in by its rule. Public rules (the
 *  sign-in routes) resolve nobody: their handler gets no Viewer and establishes who the user is itself. `answer`
 *  reshapes every response the route gives, the guard's refusals included (the /v1 routes answer errors in OpenAI's
 *  shape). */
export function guardRoute<C>(
  entry: RouteEntry,
  handler: UserHandler<C>,
  opts: { kind?: RequestKind; answer?: (response: Response) => Response | Promise<Response> } = {},
): Handler<C> {
  const rule: AccessRule = ROUTE_RULES[entry];
  const kind = opts.kind ?? (rule.who === 'public' ? 'sign-in' : 'api');
  const guarded = wrap<C>(entry, kind, async (request, context) => {
    if (rule.who === 'public') return (handler as unknown as Handler<C>)(request, context);
    const who = authorize(rule, await (await appContext()).viewer(request.headers));
    if (isRefusal(who)) {
      // An OpenAI client that sent no key is told how to send one, not to sign in.
      const keyless = who.status === 401 && entry.includes(' /v1/') && !request.headers.has('authorization');
      return problem(
        who.status,
        keyless ? NO_API_KEY : who.message,
        who.status === 401 ? { 'www-authenticate': 'Bearer realm="agent-studio"' } : {},
      );
    }
    return handler(request, context, who);
  });
  const answer = opts.answer;
  return mark(answer ? async (request, context) => answer(await guarded(request, context)) : guarded, {
    kind,
    entry,
    rule,
  });
}

/** A route handler that runs before anyone is signed in (its entry point's rule is public): the sign-in forms and
 *  the accounts library's own routes, which establish the user themselves. */
export function publicRoute<C>(entry: RouteEntry, handler: Handler<C>): Handler<C> {
  if (ROUTE_RULES[entry].who !== 'public') throw new Error(`${entry} is not a public entry point.`);
  return guardRoute(entry, handler as UserHandler<C>);
}

/** How a handler was guarded, or undefined when it was not (the coverage test). */
export function guardedAs(handler: unknown): Guarded | undefined {
  return typeof handler === 'function' ? (handler as unknown as Record<symbol, Guarded>)[GUARDED] : undefined;
}
