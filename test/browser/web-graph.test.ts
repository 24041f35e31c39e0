/**
 * A graph agent on the web page, in real Chromium against the real dev server, a worker in this
 * process and the scripted LLM: the example review loop's plan check draws the graph (its nodes,
 * the conditional edge labelled with its condition, the loop back to review) and offers only
 * the check's decisions, confirm and cancel; once confirmed, the graph's visit counts, the
 * running visit and the path list follow the run live — draft → review (not approved) → revise
 * → review (approved) → end. Causal, no clock: each review's reply waits until the page showed
 * that review running. And the start form: picking a registered graph sends `graphName` and no
 * planning modes; without registered graphs there is no picker.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../harness/chromium';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { testApp } from '../harness/http-app';
import { serveOnLoopback } from '../harness/sse-client';
import { startAgent, stateOf } from '../harness/agents';
import { finishVisit } from '../harness/graphs';
import { withWorker } from '../harness/test-env';
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { conditionText, pathLine } from '../../client/graphs/graph-display';
import { waitUntil } from '../../testkit/wait-until';
import { gate } from '../harness/gate';

const ARTIFACTS = join(__dirname, '..', 'artifacts');
const WAIT = { timeout: 30_000 };

const bed = agentTestbed();

jest.setTimeout(180_000);

/** Runs `body` with a page of a fresh headless Chromium; page errors fail the test. */
async function withPage(body: (page: Page) => Promise<void>): Promise<void> {
  const browser = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  const errors: string[] = [];
  try {
    browser.page.on('pageerror', (err) => errors.push(err.message));
    await body(browser.page);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
}

/** A node of the drawn graph, matched by its attributes. */
const node = (page: Page, id: string, attrs: Record<string, string | number> = {}) =>
  page.locator(
    `.agent-graph .node[data-node-id="${id}"]${Object.entries(attrs)
      .map(([key, value]) => `[data-${key}="${value}"]`)
      .join('')}`,
  );

const verdict = (approved: boolean) => ({ approved, feedback: approved ? 'good' : 'shorter, please' });

test('the review loop: the plan check draws the graph with confirm and cancel only, then the path and visits update live', async () => {
  const firstReviewSeen = gate();
  const secondReviewSeen = gate();
  bed.llm.respondWith(
    byRoute({
      'step:draft': [finishVisit('draft text')],
      'step:review': [reply.after(finishVisit('needs work', verdict(false)), firstReviewSeen.opened)],
      'step:revise': [finishVisit('revised text')],
      'step:review-2': [reply.after(finishVisit('approved text', verdict(true)), secondReviewSeen.opened)],
    }),
  );
  const served = await serveOnLoopback(
    testApp(bed.client, bed.config.taskQueue, { eventTiming: { pollMs: 100, heartbeatMs: 1_000 } }),
  );
  try {
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, {
        task: 'Write a haiku about cairns',
        graph: reviewLoopGraph,
        mode: { confirmPlan: true },
      });
      await withPage(async (page) => {
        await page.goto(`${served.url}/agents/${encodeURIComponent(handle.workflowId)}`);

        // The check: the graph drawn — every node, the entry and end marks, the conditional
        // edge labelled with its condition, the loop back to review — and only confirm and cancel.
        const check = page.locator('.interaction[data-kind="plan.check"]');
        await check.waitFor(WAIT);
        await page.locator('.agent-graph').waitFor(WAIT);
        for (const { id } of reviewLoopGraph.nodes) await node(page, id, { visits: 0 }).waitFor(WAIT);
        expect(await page.locator('.agent-graph .node').count()).toBe(reviewLoopGraph.nodes.length);
        const conditional = (reviewLoopGraph.edges ?? []).find((e) => e.when);
        if (!conditional) throw new Error('the review loop has a conditional edge');
        const label = page.locator(
          `.agent-graph .edge-label[data-from="${conditional.from}"][data-to="${conditional.to}"]`,
        );
        expect(await label.locator('text').textContent()).toBe(conditionText(conditional));
        expect(await label.isVisible()).toBe(true);
        expect(await page.locator('.agent-graph .edge.loop[data-from="revise"][data-to="review"]').count()).toBe(1);
        expect(await page.locator('.agent-graph .edge-label text', { hasText: '↺ to review' }).count()).toBe(1);
        expect(await page.locator('.agent-graph .entry-mark[data-node-id="draft"]').count()).toBe(1);
        expect(await node(page, 'review').getAttribute('class')).toContain('end-node');
        expect(await check.locator('.graph-edge', { hasText: `if ${conditionText(conditional)}` }).count()).toBe(1);
        expect(await check.getByRole('button').allTextContents()).toEqual(['Confirm graph', 'Cancel agent…']);
        expect(await check.locator('textarea, details').count()).toBe(0);
        expect(bed.llm.requests).toHaveLength(0); // nothing runs before the check
        await check.getByRole('button', { name: 'Confirm graph' }).click();

        // The first review runs (its reply waits for this): draft visited once, the path so far.
        await node(page, 'review', { visits: 1, current: 'true', status: 'running' }).waitFor(WAIT);
        await node(page, 'draft', { visits: 1, current: 'false', status: 'completed' }).waitFor(WAIT);
        expect(await node(page, 'revise', { visits: 0 }).count()).toBe(1);
        const path = page.locator('.graph-path li');
        await page.locator('.graph-path li.current[data-step-id="review"]').waitFor(WAIT);
        expect(await path.allTextContents()).toEqual([
          'draft draft · visit 1 → review (plain edge)',
          'review review · visit 1',
        ]);
        firstReviewSeen.open();

        // Not approved: revise, then the second review runs — review's count is 2, the loop edge taken.
        await node(page, 'review', { visits: 2, current: 'true', status: 'running' }).waitFor(WAIT);
        await node(page, 'revise', { visits: 1, current: 'false', status: 'completed' }).waitFor(WAIT);
        await page.locator('.graph-path li.current[data-step-id="review-2"]').waitFor(WAIT);
        expect(await path.count()).toBe(4);
        expect(await path.nth(1).textContent()).toBe('review review · visit 1 → revise (output.approved equals false)');
        expect(await page.locator('.agent-graph .edge.loop.taken[data-from="revise"]').count()).toBe(1);
        secondReviewSeen.open();

        // Approved at the end node: the agent completes with the review's result.
        await page.locator('.final-answer', { hasText: 'approved text' }).waitFor(WAIT);
        await node(page, 'review', { visits: 2, current: 'false', status: 'completed' }).waitFor(WAIT);
        await page.locator('[data-phase="completed"]').first().waitFor(WAIT);
        const state = await stateOf(handle);
        expect(await path.allTextContents()).toEqual(
          (state.path ?? []).map((entry) => `${entry.stepId} ${pathLine(entry)}`),
        );
        expect(state.path?.map((entry) => entry.stepId)).toEqual(['draft', 'review', 'revise', 'review-2']);
        expect(await page.locator('.graph-path li.current').count()).toBe(0);
        mkdirSync(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: join(ARTIFACTS, 'agent-graph-page.png'), fullPage: true });
      });
    });
  } finally {
    await served.close();
  }
});

test('the start form: a registered graph is sent by name without planning modes; no registered graph, no picker', async () => {
  const served = await serveOnLoopback(testApp(bed.client, bed.config.taskQueue));
  try {
    await withPage(async (page) => {
      // The list as GET /api/graphs gives it; what the page then posts is recorded, not run.
      const listed = {
        graphs: [{ name: 'review-loop', description: reviewLoopGraph.description, graph: reviewLoopGraph }],
      };
      let graphs: { status: number; body: unknown } = { status: 200, body: listed };
      await page.route('**/api/graphs', (route) =>
        route.fulfill({ status: graphs.status, contentType: 'application/json', body: JSON.stringify(graphs.body) }),
      );
      const posted: unknown[] = [];
      await page.route('**/api/agents', async (route) => {
        if (route.request().method() !== 'POST') return route.fallback();
        posted.push(route.request().postDataJSON());
        const refusal = { error: { code: 'INVALID_INPUT', message: 'recorded by the test' } };
        await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify(refusal) });
      });
      await page.goto(`${served.url}/`);
      const picker = page.locator('select[name="graph"]');
      await picker.waitFor(WAIT);
      await page.locator('#task').fill('Write a haiku');
      await page.locator('input[name="confirmPlan"]').check();
      await picker.selectOption('review-loop');
      expect(await page.locator('input[name="plan"]').isDisabled()).toBe(true);
      expect(await page.locator('input[name="ask"]').isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Start agent' }).click();
      await page.locator('#new-agent .error', { hasText: 'recorded by the test' }).waitFor(WAIT);
      // Back to none: the planning modes are sent again.
      await picker.selectOption('');
      expect(await page.locator('input[name="plan"]').isDisabled()).toBe(false);
      await page.getByRole('button', { name: 'Start agent' }).click();
      await waitUntil('the page posts again', () => posted.length === 2 || undefined);
      expect(posted).toEqual([
        { task: 'Write a haiku', graphName: 'review-loop', mode: { confirmPlan: true } },
        { task: 'Write a haiku', mode: { plan: true, ask: true, confirmPlan: true } },
      ]);

      // The list fails, or is empty: no picker, the form plans as before.
      for (const answer of [
        { status: 404, body: { error: { code: 'NOT_FOUND', message: 'no such route' } } },
        { status: 200, body: { graphs: [] } },
      ]) {
        graphs = answer;
        await page.reload();
        await page.locator('.graph-pick[data-graphs="0"]').waitFor({ ...WAIT, state: 'attached' });
        expect(await page.locator('select[name="graph"]').count()).toBe(0);
      }
    });
  } finally {
    await served.close();
  }
});
