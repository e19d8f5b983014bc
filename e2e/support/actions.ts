// The page's server actions seen from the browser: held back, as on a slow connection, so that a second click lands
// while the first request runs, and counted, to prove how many requests a click sent.
import type { Page, Request } from '@playwright/test';

function isAction(request: Request): boolean {
  return request.method() === 'POST' && request.headers()['next-action'] !== undefined;
}

/** Holds each server action's request `ms` before sending it on; returns the call that stops holding them. */
export async function slowActions(page: Page, ms: number): Promise<() => Promise<void>> {
  const all = '**/*';
  await page.route(all, async (route) => {
    if (isAction(route.request())) await new Promise((r) => setTimeout(r, ms));
    await route.fallback();
  });
  return () => page.unroute(all);
}

/** The server actions the page sends from now on whose arguments include every one of `parts` (a server action's
 *  request body is its arguments as JSON), as a list that grows. */
export function actionsSent(page: Page, ...parts: string[]): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    const body = isAction(request) ? request.postData() : null;
    if (body && parts.every((part) => body.includes(part))) sent.push(body);
  });
  return sent;
}
