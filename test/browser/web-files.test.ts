/**
 * Files on the page, in real Chromium against the real HTTP API, worker and dev server: a file
 * dropped on the start form is uploaded with the start (multipart) and read by the agent's step;
 * the file the step wrote is listed in the agent's Files panel and downloaded from it (through
 * fetch with the page's credentials), its content as written.
 *
 * Needs the per-agent workspace and the files routes (`GET /api/agents/:id/files[/<path>]`):
 * the step reads `inputs/notes.txt` in the agent's own folder, and the panel lists and serves it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_UPLOAD_LIMITS } from '../../config/upload-config';
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
const SUMMARY = 'Summary: high water at 06:12.';

test('a file dropped on the start form is read by the agent; the file it wrote downloads from the Files panel', async () => {
  const root = mkdtempSync(join(tmpdir(), 'web-files-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: root, CAIRN_AUTO_APPROVE: 'write_file' });
  const app = testApp(bed.client, config.taskQueue, { uploads: { root, limits: DEFAULT_UPLOAD_LIMITS } });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('read_file', { path: 'inputs/notes.txt' }, 'read'),
        reply.toolCall('write_file', { path: 'summary.txt', content: SUMMARY }, 'write'),
        finish('summarised'),
      ],
      summary: [reply.text('done')],
    }),
  );
  const served = await serveOnLoopback(app);
  const browser = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  const errors: string[] = [];
  browser.page.on('pageerror', (err) => errors.push(err.message));
  try {
    await withWorker(config, async () => {
      const page = browser.page;
      await page.goto(`${served.url}/`);
      await page.locator('#task').fill('Summarise the tide notes');
      // A drop as the browser delivers one: a DataTransfer holding the file, on the drop zone.
      // (Browser code as text: this file is type-checked without the DOM's types.)
      await page.evaluate(`(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([${JSON.stringify(NOTES)}], 'notes.txt', { type: 'text/plain' }));
        const zone = document.querySelector('#drop-zone');
        for (const type of ['dragover', 'drop'])
          zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      })()`);
      await page.locator('#start-files li[data-name="notes.txt"]').waitFor(WAIT);
      // Straight through: no questions, no plan check (both ticked by default).
      await page.locator('input[name="ask"]').uncheck();
      await page.locator('input[name="confirmPlan"]').uncheck();
      await page.getByRole('button', { name: 'Start agent' }).click();
      await page.waitForURL(/\/agents\/[^/]+$/, WAIT);
      await page.locator('main[data-phase="completed"]').waitFor(WAIT);

      // The step read what was dropped.
      expect(bed.llm.heardBack('read')).toContain(NOTES);

      // The panel lists the input and the output; the output downloads as written.
      await page.locator('#files tr[data-kind="input"][data-path="inputs/notes.txt"]').waitFor(WAIT);
      const written = page.locator('#files tr[data-kind="output"][data-path$="summary.txt"]');
      await written.waitFor(WAIT);
      const [download] = await Promise.all([
        page.waitForEvent('download', WAIT),
        written.getByRole('button', { name: 'Download' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('summary.txt');
      expect(readFileSync(await download.path(), 'utf8')).toBe(SUMMARY);
    });
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
    await served.close();
  }
});
