/**
 * Live output on the agent page, in real Chromium (Debian's /usr/bin/chromium driven by
 * playwright-core) against the real dev server, a worker in this process and the scripted LLM
 * streaming like the real protocol (docs/contracts.md#live-output):
 * - a step's text, its reasoning (folded) and its tool call's arguments, and then the final
 *   answer, show on the page BEFORE their model calls complete — causal, no clock: the fake holds
 *   the end of each stream until the page shows part of it;
 * - the write's approval shows the file's text with its line breaks and the diff against the
 *   file in the workspace, and the tool call's outcome joins it inline once the state records it;
 * - a call cut mid-stream is retried, and the retry's text replaces the partial one: the page
 *   showed the partial attempt (the cut waits for that), then only the retry's text;
 * - the step's transcript, opened from the steps table, shows each round's words and calls;
 * - a stream refused with 429 TOO_MANY_STREAMS is said on the page and tried again after the
 *   Retry-After (the refusal played by the browser's request routing, worded as the API words it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../harness/chromium';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { testApp } from '../harness/http-app';
import { serveOnLoopback } from '../harness/sse-client';
import { startAgent, agentFolder } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker, uniqueId } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { gate } from '../harness/gate';

const WAIT = { timeout: 30_000 };

const bed = agentTestbed();

jest.setTimeout(180_000);

/** Serves the real app (API + page) without authentication on a free loopback port. */
async function serveApp(taskQueue: string): Promise<{ url: string; close(): Promise<void> }> {
  return serveOnLoopback(testApp(bed.client, taskQueue, { eventTiming: { pollMs: 100, heartbeatMs: 1_000 } }));
}

/** Runs `body` with a page of a fresh headless Chromium; page errors fail the test. */
async function withPage(body: (page: Page) => Promise<void>): Promise<void> {
  const browser = await launchChromium();
  const errors: string[] = [];
  try {
    browser.page.on('pageerror', (err) => errors.push(err.message));
    await body(browser.page);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
}

/** The text of the first element `selector` matches, once it has some. */
async function textOnceShown(page: Page, selector: string): Promise<string> {
  const el = page.locator(selector, { hasText: /\S/ }).first();
  await el.waitFor(WAIT);
  return (await el.textContent()) ?? '';
}

test("a step's words, reasoning and tool call, then the final answer, show before their calls complete", async () => {
  const stepShown = gate();
  const answerShown = gate();
  const said = 'I will write the notes file now, two lines.';
  const content = 'line one\nline two\n';
  const answer = 'The notes are written: notes.md holds two lines for the team.';
  const workspace = mkdtempSync(join(tmpdir(), 'web-live-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const agentId = uniqueId('agent-test');
  writeFileSync(join(agentFolder(config, agentId), 'notes.md'), 'line one\nold line\n');
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1', [], { title: 'Write notes' })]))],
      'step:s1': [
        reply.endAfter(
          reply.toolCalls([{ id: 'w1', name: 'write_file', arguments: { path: 'notes.md', content } }], {
            content: said,
            quirks: { reasoningContent: 'They asked for notes; a file is best.' },
          }),
          stepShown.opened,
        ),
        finish('wrote notes'),
      ],
      summary: [reply.endAfter(reply.text(answer), answerShown.opened)],
    }),
  );
  const served = await serveApp(config.taskQueue);
  try {
    await withWorker(config, async () => {
      const handle = await startAgent(bed.client, config, { task: 'Write notes for the team' }, agentId);
      await withPage(async (page) => {
        await page.goto(`${served.url}/agents/${encodeURIComponent(handle.workflowId)}`);

        // The step's words, while its model call is still open (its stream's end is held).
        const group = '.live-group[data-step-id="s1"]';
        const shown = await textOnceShown(page, `${group} .live-text`);
        expect(said.startsWith(shown)).toBe(true);
        await page
          .locator(`${group} .live-tool[data-tool-call-id="w1"] .tool-args`, { hasText: 'notes.md' })
          .waitFor(WAIT);
        expect(await page.locator(`${group} .live-tool .tool-name`).textContent()).toBe('write_file');
        // Reasoning is there, folded.
        const reasoning = page.locator(`${group} details.live-reasoning`);
        expect(await reasoning.getAttribute('open')).toBeNull();
        expect(await reasoning.locator('.reasoning-text').textContent()).toContain('a file is best');
        expect(bed.llm.requestsFor('step')[0]?.answeredAt).toBeUndefined();
        stepShown.open();

        // The approval shows the file as text, line breaks and all; approving it runs the write.
        const approval = page.locator('.interaction[data-kind="tool.approval"]');
        await approval.waitFor(WAIT);
        expect(await approval.locator('dd[data-arg="content"] pre').textContent()).toBe(content);
        expect(await approval.locator('dd[data-arg="path"] pre').textContent()).toBe('notes.md');
        // And how the file would change: the diff against the one in the workspace, line by line.
        const diff = approval.locator('.approval-change[data-change="diff"] pre.diff');
        expect(await diff.locator('.diff-del').allTextContents()).toEqual(['-old line\n']);
        expect(await diff.locator('.diff-add').allTextContents()).toEqual(['+line two\n']);
        await approval.getByRole('button', { name: 'Approve' }).click();
        await page
          .locator(`${group} .live-tool[data-tool-call-id="w1"] .tool-outcome[data-outcome="ok"]`)
          .waitFor(WAIT);
        // And under it, what the tool returned: what the model heard back, as the step's transcript keeps it.
        const result = page.locator(`${group} .live-tool[data-tool-call-id="w1"] pre.tool-result`);
        await result.waitFor(WAIT);
        const heard = await waitUntil('the model is told what the write returned', () => bed.llm.heardBack('w1'));
        expect(await result.textContent()).toBe(heard);

        // The final answer grows in the answer card while its call is open, then the answer replaces it.
        const partial = await textOnceShown(page, '#live-answer .live-text');
        expect(answer.startsWith(partial)).toBe(true);
        expect(bed.llm.requestsFor('summary')[0]?.answeredAt).toBeUndefined();
        expect(await page.locator('.final-answer').count()).toBe(0);
        answerShown.open();
        await page.locator('.final-answer', { hasText: 'notes.md holds two lines' }).waitFor(WAIT);
        await page.locator('#live-answer').waitFor({ state: 'hidden', ...WAIT });

        // The step's transcript, opened from the steps table: each round's words, reasoning
        // (folded), and its tool call with the outcome and what the model heard back.
        await page.locator('tr[data-step-id="s1"] .transcript-open').click();
        const first = page.locator('#transcript .transcript-round[data-round="1"]');
        await first.waitFor(WAIT);
        expect(await first.locator('.transcript-text').textContent()).toBe(said);
        expect(await first.locator('details.transcript-reasoning').getAttribute('open')).toBeNull();
        expect(await first.locator('details.transcript-reasoning pre').textContent()).toContain('a file is best');
        expect(await first.locator('.transcript-call .tool-name').textContent()).toBe('write_file');
        expect(await first.locator('.transcript-call .status').textContent()).toBe(' → ok');
        expect(await first.locator('.transcript-result').textContent()).toMatch(/\S/);
        const second = page.locator('#transcript .transcript-round[data-round="2"]');
        expect(await second.locator('.transcript-call .tool-name').textContent()).toBe('finish_step');
      });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
  } finally {
    await served.close();
    rmSync(workspace, { recursive: true, force: true });
  }
});

test("a call cut mid-stream is retried, and the retry's text replaces the partial one on the page", async () => {
  const partialShown = gate();
  const retryShown = gate();
  const first = 'FIRST DRAFT: the quarterly numbers are not in yet, so this part is a guess.';
  const second = 'Second try: revenue grew in every quarter and costs fell in two.';
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        // The cut waits until the page shows the partial text; the retry's end until it shows the retry's.
        reply.endAfter(reply.disconnectAfter(reply.text(first), 6), partialShown.opened),
        reply.endAfter(reply.text(second), retryShown.opened),
      ],
      summary: [reply.text('done')],
    }),
  );
  const served = await serveApp(bed.config.taskQueue);
  try {
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'report' });
      await withPage(async (page) => {
        await page.goto(`${served.url}/agents/${encodeURIComponent(handle.workflowId)}`);
        const call = '.live-group[data-step-id="s1"] .live-call';
        await page.locator(`${call}[data-attempt="1"] .live-text`, { hasText: 'FIRST DRAFT' }).waitFor(WAIT);
        partialShown.open();

        // The retry's text, while its call is open: the partial attempt is gone, not beside it.
        await page.locator(`${call}[data-attempt="2"] .live-text`, { hasText: 'Second try' }).waitFor(WAIT);
        expect(bed.llm.requestsFor('step')[0]?.disconnected).toBe(true);
        expect(bed.llm.requestsFor('step')[1]?.answeredAt).toBeUndefined();
        expect(await page.locator(call).count()).toBe(1);
        expect(await page.locator('.live-group[data-step-id="s1"]').textContent()).not.toContain('FIRST DRAFT');
        retryShown.open();

        await page.locator(`${call}[data-state="completed"]`).waitFor(WAIT);
        expect(await page.locator(`${call} .live-text`).allTextContents()).toEqual([second]);
      });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
  } finally {
    await served.close();
  }
});

test('a live stream and a timeline refused with 429 TOO_MANY_STREAMS are said on the page, waited out, and tried again', async () => {
  const stepShown = gate();
  const said = 'Working on it: the numbers first, then the chart.';
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.endAfter(reply.text(said), stepShown.opened)],
      summary: [reply.text('done')],
    }),
  );
  const served = await serveApp(bed.config.taskQueue);
  try {
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'chart' });
      await withPage(async (page) => {
        // The server's first answer to the page's live stream, and to its timeline, is a refusal, as the API words it.
        const refusals = { stream: 0, events: 0 };
        for (const route of ['stream', 'events'] as const) {
          await page.route(`**/${route}`, async (request) => {
            if (refusals[route] > 0) return request.continue();
            refusals[route] += 1;
            await request.fulfill({
              status: 429,
              headers: { 'Retry-After': '1', 'Content-Type': 'application/json' },
              body: JSON.stringify({ error: { code: 'TOO_MANY_STREAMS', message: 'too many' } }),
            });
          });
        }
        await page.goto(`${served.url}/agents/${encodeURIComponent(handle.workflowId)}`);
        await page.locator('#live-status', { hasText: 'too many streams are open' }).waitFor(WAIT);
        await page.locator('#timeline-status', { hasText: 'Timeline paused: too many streams are open' }).waitFor(WAIT);
        // The timeline, tried again after the wait, reads again: the notice goes (an empty one is not shown).
        await page.locator('#timeline-status').waitFor({ state: 'hidden', ...WAIT });
        // Tried again after the wait: the step's words arrive while its call is open, and the notice goes.
        const shown = await textOnceShown(page, '.live-group[data-step-id="s1"] .live-text');
        expect(said.startsWith(shown)).toBe(true);
        expect(refusals).toEqual({ stream: 1, events: 1 });
        expect(await page.locator('#live-status').textContent()).toBe('');
        stepShown.open();
      });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
  } finally {
    await served.close();
  }
});
