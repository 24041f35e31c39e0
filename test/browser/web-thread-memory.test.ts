/**
 * A thread's title and summary on the web page, in real Chromium against the real dev server, a
 * worker in this process and the scripted LLM: the conversations list and the conversation's
 * heading show the model-written title, and once old turns are folded the conversation says how
 * many earlier messages its summary stands for, with the summary.
 */
import { launchChromium } from '../harness/chromium';
import { ThreadClient } from '../../client/threads/thread-client';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { serveOnLoopback } from '../harness/sse-client';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { testApp } from '../harness/http-app';

const WAIT = { timeout: 30_000 };
const bed = agentTestbed();

jest.setTimeout(120_000);

/** A text of exactly `size` characters starting with `head`. */
const sized = (head: string, size: number): string =>
  `${head} ${'lorem ipsum dolor sit amet '.repeat(20)}`.slice(0, size);

test('the page lists the thread under its model-written title and says which earlier messages the summary stands for', async () => {
  const summary = 'They compared three note apps and chose none.';
  bed.llm.respondWith(
    byRoute({
      title: [reply.text('Choosing a notes app')],
      chat: [1, 2, 3].map((n) => reply.text(sized(`reply ${n}:`, 100))),
      compress: [reply.text(summary)],
    }),
  );
  // 200 characters a turn, threshold 500: after the third, the two oldest fold.
  const threads = new ThreadClient(bed.client, bed.config.taskQueue, true, undefined, { compressAtChars: 500 });
  const app = testApp(bed.client, bed.config.taskQueue, { threads, eventTiming: { pollMs: 100, heartbeatMs: 1_000 } });
  const served = await serveOnLoopback(app);
  const { context, close: closeBrowser } = await launchChromium({ viewport: { width: 1280, height: 900 } });
  const pageErrors: string[] = [];
  try {
    await withWorker(bed.config, async () => {
      const { id } = await threads.open({ text: sized('message 1:', 100), kind: 'chat' });
      for (const n of [2, 3]) await threads.send(id, { text: sized(`message ${n}:`, 100), kind: 'chat' });
      await waitUntil('folded and titled', async () => {
        const view = await threads.get(id);
        return view.summary && view.title === 'Choosing a notes app' ? view : undefined;
      });
      const page = context.pages()[0] ?? (await context.newPage());
      page.on('pageerror', (err) => pageErrors.push(err.message));

      await page.goto(`${served.url}/threads`);
      await page.locator(`.thread-row[data-id="${id}"] a`, { hasText: 'Choosing a notes app' }).waitFor(WAIT);
      await page.locator(`.thread-row[data-id="${id}"] a`).click();
      await page.locator('.thread-title', { hasText: 'Choosing a notes app' }).waitFor(WAIT);
      const note = page.locator('.thread-summary');
      await note.waitFor(WAIT);
      expect(await note.textContent()).toBe(`2 earlier messages (through msg-2), summarized: ${summary}`);
      expect(await page.locator('.turn').count()).toBe(1);
    });
    expect(pageErrors).toEqual([]);
  } finally {
    await closeBrowser();
    await served.close();
  }
});
