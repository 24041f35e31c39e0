/**
 * The agent page's live panels once the agent has ended, in real Chromium against the real dev
 * server, a worker in this process and the scripted LLM: the planner's reply shows as the plan's
 * list of steps, not its JSON; each tool call as one `name(key: value, …)` line; and no call is
 * left marked "…" (still running) — the step's `finish_step`, whose outcome the state never
 * records, included.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../harness/chromium';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { testApp } from '../harness/http-app';
import { serveOnLoopback } from '../harness/sse-client';
import { startAgent, agentFolder } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker, uniqueId } from '../harness/test-env';

const WAIT = { timeout: 30_000 };
const bed = agentTestbed();

jest.setTimeout(180_000);

test('after the agent ends, its live panels show the plan as a list, tool calls as lines and nothing still "…"', async () => {
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: mkdtempSync(join(tmpdir(), 'web-live-ended-')) });
  const agentId = uniqueId('agent-test');
  writeFileSync(join(agentFolder(config, agentId), 'notes.md'), 'high water 06:12\n');
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1', [], { title: 'Read the notes' }), step('s2', ['s1'], { title: 'Answer' })]))],
      'step:s1': [reply.toolCall('read_file', { path: 'notes.md' }, 'r1'), finish('high water at 06:12')],
      'step:s2': [finish('06:12')],
      summary: [reply.text('High water is at 06:12.')],
    }),
  );
  const served = await serveOnLoopback(
    testApp(bed.client, config.taskQueue, { eventTiming: { pollMs: 100, heartbeatMs: 1_000 } }),
  );
  const browser = await launchChromium();
  const errors: string[] = [];
  try {
    browser.page.on('pageerror', (err) => errors.push(err.message));
    await withWorker(config, async () => {
      const handle = await startAgent(bed.client, config, { task: 'When is high water?' }, agentId);
      const page = browser.page;
      await page.goto(`${served.url}/agents/${encodeURIComponent(handle.workflowId)}`);
      await page.locator('main[data-phase="completed"]').waitFor(WAIT);
      // The plan as its steps.
      await page.locator('#live-plan .live-plan li').first().waitFor(WAIT);
      expect(await page.locator('#live-plan .live-plan li').allTextContents()).toEqual([
        's1: Read the notes',
        's2: Answer (after s1)',
      ]);
      // The read as one line, with its outcome.
      const read = page.locator('#live-steps .live-tool[data-tool-call-id="r1"]');
      await read.locator('.tool-outcome[data-outcome="ok"]').waitFor(WAIT);
      expect(await read.locator('.tool-name').textContent()).toBe('read_file');
      expect(await read.locator('.tool-args').textContent()).toBe('(path: notes.md)');
      // Once the agent has ended: no JSON, and nothing marked as still running.
      await page.locator('#live-steps .tool-outcome[data-outcome="none"]').first().waitFor(WAIT);
      const panels = await page.locator('#live-plan, #live-steps, #live-answer').allTextContents();
      expect(panels.join('\n')).not.toContain('{"');
      expect(await page.locator('.live .tool-outcome').allTextContents()).not.toContain('…');
    });
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
    await served.close();
  }
});
