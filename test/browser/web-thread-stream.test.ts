/**
 * A chat reply grows on the conversation page as the model writes it — the first message of a
 * new conversation's too — in real Chromium against the real dev server, a worker in this
 * process and the scripted LLM: the reply streams a few chunks and the rest is held until the
 * page has shown them (causal, no clock); then the thread's recorded reply replaces the live text.
 */
import type { Page } from 'playwright-core';
import { launchChromium } from '../harness/chromium';
import { ThreadClient } from '../../client/threads/thread-client';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { serveOnLoopback } from '../harness/sse-client';
import { withWorker } from '../harness/test-env';
import { testApp } from '../harness/http-app';

const WAIT = { timeout: 30_000 };

const bed = agentTestbed();

jest.setTimeout(120_000);

/** The turn of message `messageId` on the conversation page. */
const turn = (page: Page, messageId: string) => page.locator(`.turn[data-message-id="${messageId}"]`);

test("a new conversation's first chat reply shows on the page while it is written, then the recorded reply replaces it", async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const answer = 'Obsidian keeps local Markdown files, Notion shares pages, and Bear is the simplest of the three.';
  // The reply stops after a few chunks until the page has shown them.
  bed.llm.respondWith(byRoute({ chat: [reply.pauseAfter(reply.text(answer), 4, gate)] }));
  const threads = new ThreadClient(bed.client, bed.config.taskQueue);
  const app = testApp(bed.client, bed.config.taskQueue, { threads, eventTiming: { pollMs: 100, heartbeatMs: 1_000 } });
  const served = await serveOnLoopback(app);
  const { context, close: closeBrowser } = await launchChromium({ viewport: { width: 1280, height: 900 } });
  const pageErrors: string[] = [];
  try {
    await withWorker(bed.config, async () => {
      const page = context.pages()[0] ?? (await context.newPage());
      page.on('pageerror', (err) => pageErrors.push(err.message));
      await page.goto(`${served.url}/threads/new`);
      await page.locator('.thread-title', { hasText: 'New conversation' }).waitFor(WAIT);
      await page.locator('#message').fill('Which notes app keeps files local?');
      await page.locator('#send-kind').selectOption('chat');
      await page.getByRole('button', { name: 'Send' }).click();
      // The conversation opens and the page moves to it, which then sends the message.
      await page.waitForURL(/\/threads\/thread-/, WAIT);
      const id = decodeURIComponent(new URL(page.url()).pathname.replace('/threads/', ''));

      // Part of the reply shows while the model's reply is half written (its rest is held).
      const writing = turn(page, 'msg-1').locator('.turn-writing');
      await writing.waitFor(WAIT);
      // Rendered Markdown: the text without its trailing blanks.
      const shown = ((await writing.textContent()) ?? '').trim();
      expect(bed.llm.requestsFor('chat')[0]?.answeredAt).toBeUndefined();
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.length).toBeLessThan(answer.length);
      expect(answer.startsWith(shown)).toBe(true);

      // Released: the thread's record of the reply replaces the live text.
      release();
      const done = page.locator('.turn[data-message-id="msg-1"][data-status="completed"]');
      await done.waitFor(WAIT);
      await done.locator('.turn-answer:not(.turn-writing)').waitFor(WAIT);
      expect((await done.locator('.turn-answer').textContent())?.trim()).toBe(answer);
      expect(await done.locator('.turn-writing').count()).toBe(0);
      expect((await threads.get(id)).turns[0]?.reply).toBe(answer);
      await page.locator('.send-result', { hasText: 'msg-1: answered' }).waitFor(WAIT);
      expect(pageErrors).toEqual([]);
    });
  } finally {
    release();
    await closeBrowser();
    await served.close();
  }
});
