// The route handlers for what /v1 does not serve (lib/openai-api/not-served.ts): behind the same request checks and
// access check as the served /v1 routes, so a caller without a valid key gets their 401 first, as from OpenAI, and
// learns nothing of which paths exist; the answer in OpenAI's error shape, the guard's refusals included.
import { asOpenAiError } from '../openai-api/errors';
import { allowedMethods, notServed, wrongMethod } from '../openai-api/not-served';
import type { RouteEntry } from './access-rules';
import { guardRoute } from './route';

/** A path under /v1 that no route serves: 404. */
export function notServedRoute(entry: RouteEntry) {
  return guardRoute(entry, (request: Request) => notServed(request), { answer: asOpenAiError });
}

/** OPTIONS on a served path: the methods it answers, in Allow. */
export function optionsRoute(entry: RouteEntry, allow: readonly ('GET' | 'POST')[]) {
  return guardRoute(entry, () => allowedMethods(allow), { answer: asOpenAiError });
}

/** A method the route's path does not answer: 405 with Allow. */
export function wrongMethodRoute(entry: RouteEntry, allow: readonly ('GET' | 'POST')[]) {
  return guardRoute(entry, (request: Request) => wrongMethod(request, allow), { answer: asOpenAiError });
}
