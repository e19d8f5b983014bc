// A page on the surviving instance follows a run another instance drives, and that instance is killed (SIGKILL): the
// survivor marks the run interrupted within the lease's bound, and the page following it there learns of it as soon
// as its feed ends, showing the run interrupted with what was kept. Real Chromium (Debian's), two built apps, one
// PostgreSQL database. Before, the feed ended without a run-end and the page went on showing the answer as streaming.
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult, ConversationData } from '../../lib/chat/page';
import { postgresMissing } from '../support/postgres';
import { action, startChat, startCluster, textOf, type Cluster, type FeedItem } from './support/instances';

const missing = postgresMissing();
/** Heartbeats every 300 ms; a dead instance's runs are marked within 1.8 s. */
const LEASE_MS = 1_500;

if (missing) {
  describe('a follower of a killed instance', () => it.skip(`skipped: ${missing}`, () => undefined));
} else {
  describe('a page following a run whose instance is killed', () => {
    let cluster: Cluster;
    let browser: Browser;

    beforeAll(async () => {
      cluster = await startCluster({ count: 2, leaseMs: LEASE_MS });
      browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
    });
    afterAll(async () => {
      await browser?.close();
      await cluster?.stop();
    });

    it('shows the run interrupted, with what was kept, soon after the lease runs out', async () => {
      const [a, b] = cluster.instances as [Cluster['instances'][0], Cluster['instances'][0]];
      const words = Array.from({ length: 2000 }, (_, i) => `w${i} `).join('');
      cluster.model.setScenario({ replies: [{ content: words, chunkSize: 4, delayMs: 25 }] });
      const { sse, ids } = await startChat(a, { message: 'A story for the night', tools: [] });
      const seen: FeedItem[] = [];
      await sse.readUntil((i) => textOf(seen.concat(i)).length > 40, seen);

      // The page on B opens the conversation (as after a reload behind a load balancer) and follows the run.
      const page = await browser.newPage();
      await page.goto(`${b.url}/?c=${ids.conversationId}`);
      const answer = page.locator('article[data-role="assistant"]').last();
      await expect
        .poll(async () => (await answer.innerText().catch(() => '')).length, { timeout: 20_000 })
        .toBeGreaterThan(60);
      expect(await answer.getAttribute('aria-busy')).toBe('true');

      await a.kill();
      const killedAt = Date.now();
      await sse.rest(seen).catch(() => seen);
      // The lease's bound (1.8 s here), then the feed's end reaching the page; slack for a busy machine.
      await expect
        .poll(async () => answer.getByText('Interrupted: the server stopped during this answer').count(), {
          timeout: LEASE_MS + LEASE_MS / 5 + 8_000,
        })
        .toBe(1);
      const tookMs = Date.now() - killedAt;
      expect(await answer.getAttribute('aria-busy')).toBe('false');

      // What the page shows is what was kept: the stored log's answer.
      const opened = await action<ActionResult<ConversationData>>(b, 'loadConversation', [ids.conversationId]);
      if (!opened.ok) throw new Error(opened.error);
      const turn = opened.value.turns.at(-1)!;
      expect(turn.runStatus).toBe('interrupted');
      const kept = turn.events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
      expect(kept.length).toBeGreaterThan(40);
      expect((await answer.innerText()).replace(/\s+/g, ' ')).toContain(kept.trim().split(' ').slice(-3).join(' '));
      console.log(`the page on B showed the run interrupted ${tookMs} ms after A was killed`);
      await page.close();
    });
  });
}
