/**
 * Files in a conversation, in real Chromium against the real HTTP API, worker and dev server: a
 * file dropped on the send box goes with the message (multipart), is stored in the thread's
 * folder and read by the task turn's step; a refused first message of a new conversation (a file
 * of a refused type, a text over the limit) opens no thread and comes back into the box.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_UPLOAD_LIMITS } from '../../config/upload-config';
import { agentWorkspaceDir } from '../../config/agent-workspace';
import { ThreadClient } from '../../client/threads/thread-client';
import { MAX_MESSAGE_CHARS } from '../../workflows/model/thread/thread-schemas';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { launchChromium } from '../harness/chromium';
import { testApp } from '../harness/http-app';
import { finish, plan, planReply, step } from '../harness/plans';
import { serveOnLoopback } from '../harness/sse-client';
import { testConfig, withWorker } from '../harness/test-env';

const WAIT = { timeout: 60_000 };
const bed = agentTestbed();

jest.setTimeout(180_000);

const NOTES = 'Tide at Brest: high water 06:12, low water 12:25.';

/** Cairn's app with uploads in a fresh workspace, served on loopback, and Chromium: what each test drives. */
async function threadPage() {
  const root = mkdtempSync(join(tmpdir(), 'web-thread-files-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: root });
  const app = testApp(bed.client, config.taskQueue, {
    uploads: { root, limits: DEFAULT_UPLOAD_LIMITS },
    threads: new ThreadClient(bed.client, config.taskQueue),
  });
  const served = await serveOnLoopback(app);
  const browser = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  const errors: string[] = [];
  browser.page.on('pageerror', (err) => errors.push(err.message));
  return { root, config, served, browser, errors };
}

test("a file dropped on the conversation's send box goes with the message and is read by the task turn's step", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('read_file', { path: 'inputs/notes.txt' }, 'read'), finish('read')],
      summary: [reply.text('High water is at 06:12.')],
    }),
  );
  const { root, config, browser, served, errors } = await threadPage();
  try {
    await withWorker(config, async () => {
      const page = browser.page;
      await page.goto(`${served.url}/threads/new`);
      await page.locator('#message').fill('When is high water?');
      await page.locator('#send-kind').selectOption('task');
      // A drop as the browser delivers one (browser code as text: this file has no DOM types).
      await page.evaluate(`(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([${JSON.stringify(NOTES)}], 'notes.txt', { type: 'text/plain' }));
        const zone = document.querySelector('#send-drop-zone');
        for (const type of ['dragover', 'drop'])
          zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      })()`);
      await page.locator('#send-files li[data-name="notes.txt"]').waitFor(WAIT);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL(/\/threads\/thread-/, WAIT);
      const threadId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
      await page.locator('.turn[data-message-id="msg-1"][data-status="completed"]').waitFor(WAIT);
      expect(bed.llm.heardBack('read')).toContain(NOTES);
      expect(readFileSync(join(agentWorkspaceDir(root, threadId), 'inputs', 'notes.txt'), 'utf8')).toBe(NOTES);
    });
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
    await served.close();
  }
});

/** This deployment's threads, as the conversations list reads them. */
const threadsOn = (taskQueue: string) => new ThreadClient(bed.client, taskQueue).list();

test("a new conversation's first message that is refused opens no thread and comes back into the send box with its files, to mend and send", async () => {
  bed.llm.respondWith(byRoute({ chat: [reply.text('Hello.')] }));
  const { config, browser, served, errors } = await threadPage();
  try {
    await withWorker(config, async () => {
      const page = browser.page;
      await page.goto(`${served.url}/threads/new`);
      await page.locator('#message').fill('Look at this archive');
      await page.evaluate(`(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['PK'], 'bundle.exe', { type: 'application/octet-stream' }));
        const zone = document.querySelector('#send-drop-zone');
        for (const type of ['dragover', 'drop'])
          zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      })()`);
      await page.locator('#send-files li[data-name="bundle.exe"]').waitFor(WAIT);
      await page.getByRole('button', { name: 'Send' }).click();
      // Refused (the file's type) before any thread started: still a new conversation, text and file back.
      await page.locator('#thread-send .error').filter({ hasText: /\S/ }).waitFor(WAIT);
      expect(new URL(page.url()).pathname).toBe('/threads/new');
      expect(await threadsOn(config.taskQueue)).toEqual([]);
      expect(await page.locator('#message').inputValue()).toBe('Look at this archive');
      await page.locator('#send-files li[data-name="bundle.exe"]').waitFor(WAIT);
      // Mended (the file removed, chat chosen) and sent again: answered.
      await page.locator('#send-files li[data-name="bundle.exe"]').getByRole('button', { name: 'remove' }).click();
      await page.locator('#send-kind').selectOption('chat');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL(/\/threads\/thread-/, WAIT);
      await page.locator('.turn[data-message-id="msg-1"][data-status="completed"]').waitFor(WAIT);
      expect(await page.locator('#message').inputValue()).toBe('');
      expect(await threadsOn(config.taskQueue)).toHaveLength(1);
    });
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
    await served.close();
  }
});

test("a new conversation's first message over the length limit opens no thread", async () => {
  const { config, browser, served, errors } = await threadPage();
  try {
    await withWorker(config, async () => {
      const page = browser.page;
      await page.goto(`${served.url}/threads/new`);
      const long = 'x'.repeat(MAX_MESSAGE_CHARS + 1);
      await page.locator('#message').fill(long);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('#thread-send .error').filter({ hasText: /\S/ }).waitFor(WAIT);
      expect(await page.locator('#thread-send .error').textContent()).toMatch(/20000/);
      expect(new URL(page.url()).pathname).toBe('/threads/new');
      expect(await threadsOn(config.taskQueue)).toEqual([]);
      expect(await page.locator('#message').inputValue()).toBe(long);
    });
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
    await served.close();
  }
});
