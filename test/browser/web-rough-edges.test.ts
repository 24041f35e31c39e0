/**
 * The rough edges a new user met on the agent page, in real Chromium (Debian's /usr/bin/chromium
 * driven by playwright-core) against the real dev server, a worker in this process and the
 * scripted LLM, served without authentication as `npm start` serves it:
 * - "Edit as JSON" with a misspelt key (`dependsOn`) is refused with the server's message naming
 *   it, and nothing changes (it used to run the planner's plan as if the edit said nothing);
 * - "Cancel agent" asks before it cancels, at the plan check (apart from "Confirm plan") and in
 *   the header; "Keep …" sends nothing;
 * - a running step of a paused agent shows `paused` (table and graph), not `running`;
 * - the phase "awaiting input" has no second "waiting for input" badge; a step that never
 *   started has no Temporal UI link (its workflow does not exist);
 * - once cancelled, a step that never ran shows `not run` (not `pending`), the answer box and the
 *   interactions say the agent ended (not "No answer yet"), and the pause and the cancel are by
 *   `web`, as the page's answers are.
 */
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from '../harness/chromium';
import { isTerminalPhase } from '../../workflows/model/state/agent-phases';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { testApp } from '../harness/http-app';
import { serveOnLoopback } from '../harness/sse-client';
import { startAgent, stateOf, waitForInteraction, waitForState } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const WAIT = { timeout: 30_000 };

const bed = agentTestbed();

jest.setTimeout(180_000);

/** Serves the real app (API + page) without authentication on a free loopback port. */
async function serveApp(taskQueue: string): Promise<{ url: string; close(): Promise<void> }> {
  return serveOnLoopback(testApp(bed.client, taskQueue, { eventTiming: { pollMs: 100, heartbeatMs: 1_000 } }));
}

/** The status cell and graph node of step `id`, once they show `status`. */
async function stepShows(page: Page, id: string, status: string): Promise<void> {
  await page.locator(`tr[data-step-id="${id}"] .status`, { hasText: new RegExp(`^${status}$`) }).waitFor(WAIT);
  await page.locator(`.plan-graph .node[data-step-id="${id}"][data-status="${status}"]`).waitFor(WAIT);
}

test('plan edit refused by name, cancel asks first, a paused step shows paused, an ended agent reads as ended', async () => {
  let openGate = () => undefined as void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const planned = plan([step('a'), step('b', ['a'])]);
  // a's first model call waits for the gate: the step is mid-call while the test pauses and cancels.
  bed.llm.respondWith(byRoute({ plan: [planReply(planned)], 'step:a': [reply.after(finish('A'), gate)] }));
  const served = await serveApp(bed.config.taskQueue);
  let launched: LaunchedChromium | undefined;
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  try {
    launched = await launchChromium({ viewport: { width: 1280, height: 1000 } });
    const browser = launched.context;
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'Rough edges', mode: { confirmPlan: true } });
      const check = await waitForInteraction(handle, 'plan.check');
      const page = browser.pages()[0] ?? (await browser.newPage());
      page.on('pageerror', (err) => pageErrors.push(err.message));
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      const cancels: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && /\/cancel$/.test(request.url())) cancels.push(request.url());
      });
      await page.goto(`${served.url}/agents/${encodeURIComponent(handle.workflowId)}`);
      const control = page.locator('.interaction[data-kind="plan.check"]');
      await control.waitFor(WAIT);

      // "awaiting input" is the phase; no second badge says the same.
      await page.locator('.agent-header [data-phase="awaiting_input"]').waitFor(WAIT);
      expect(await page.locator('.agent-header .badge.waiting').count()).toBe(0);

      // Edit as JSON with a misspelt key: refused, naming it; nothing changes.
      const before = await stateOf(handle);
      await control.getByText('Edit as JSON').click();
      const misspelt = { ...planned, steps: [planned.steps[0], { ...step('b'), dependsOn: ['nowhere'] }] };
      await control.getByLabel('plan JSON').fill(JSON.stringify(misspelt, null, 2));
      await control.getByRole('button', { name: 'Save edited plan' }).click();
      await control.locator('.server-error', { hasText: 'steps.1.dependsOn: unknown key' }).waitFor(WAIT);
      expect(await stateOf(handle)).toEqual(before);

      // The plan check's cancel is apart from "Confirm plan" and asks first; "Keep" sends nothing.
      const confirmRow = control.getByRole('button', { name: 'Confirm plan' }).locator('xpath=..');
      expect(await confirmRow.getByRole('button', { name: /cancel/i }).count()).toBe(0);
      await control.getByRole('button', { name: 'Cancel agent…' }).click();
      await control.getByText('Cancel this agent instead of running the plan?').waitFor(WAIT);
      await control.getByRole('button', { name: 'Keep the plan check' }).click();
      await control.getByRole('button', { name: 'Cancel agent…' }).waitFor(WAIT);
      expect((await stateOf(handle)).interactions.find((i) => i.id === check.id)?.status).toBe('open');

      await control.getByRole('button', { name: 'Confirm plan' }).click();
      await waitForState(handle, 'step a runs', (s) => s.steps.find((x) => x.id === 'a')?.status === 'running');
      await stepShows(page, 'a', 'running');
      // b never started: its workflow does not exist, so there is no link to it; a has one.
      await page.locator('tr[data-step-id="a"] .temporal-link').waitFor(WAIT);
      expect(await page.locator('tr[data-step-id="b"] .temporal-link').count()).toBe(0);

      // Pause: the step's own status stays running; the page shows it paused.
      await page.getByRole('button', { name: 'Pause agent' }).click();
      const paused = await waitForState(handle, 'paused', (s) => s.phase === 'paused');
      expect(paused.steps.find((s) => s.id === 'a')?.status).toBe('running');
      expect(paused.hold).toMatchObject({ reasons: ['pause'], by: 'web' });
      await stepShows(page, 'a', 'paused');
      await stepShows(page, 'b', 'pending');

      // The header's cancel asks first; "Keep it running" sends nothing; "Yes" cancels.
      const header = page.locator('.agent-header');
      await header.getByRole('button', { name: 'Cancel agent…' }).click();
      await header.getByText('Cancel this agent? Running steps stop; finished work is kept.').waitFor(WAIT);
      await header.getByRole('button', { name: 'Keep it running' }).click();
      await header.getByRole('button', { name: 'Cancel agent…' }).waitFor(WAIT);
      expect(cancels).toEqual([]);
      await header.getByRole('button', { name: 'Cancel agent…' }).click();
      await header.getByRole('button', { name: 'Yes, cancel the agent' }).click();
      const ended = await waitForState(handle, 'cancelled', (s) => isTerminalPhase(s.phase));
      expect(cancels).toHaveLength(1);
      expect(ended.phase).toBe('cancelled');
      expect(ended.steps.map((s) => [s.id, s.status])).toEqual([
        ['a', 'cancelled'],
        ['b', 'pending'],
      ]);
      expect(ended.events.find((e) => e.type === 'agent.finished')?.message).toContain('by web');

      // The ended agent reads as ended: b was not run, no answer will come, nothing to answer.
      await page.locator('[data-phase="cancelled"]').first().waitFor(WAIT);
      await stepShows(page, 'a', 'cancelled');
      await stepShows(page, 'b', 'not run');
      await page.locator('.no-answer', { hasText: 'No answer: the agent ended cancelled.' }).waitFor(WAIT);
      await page.getByText('Nothing to answer: the agent has ended.').waitFor(WAIT);
      expect(await page.getByText('No answer yet.').count()).toBe(0);
      expect(
        await page
          .locator('.agent-header')
          .getByRole('button', { name: /cancel/i })
          .count(),
      ).toBe(0);
      // The audit names the same actor for the page's answer, its pause and its cancel.
      await page.locator('#audit li', { hasText: 'cancelled' }).waitFor(WAIT);
      const who = await page.locator('#audit .who').allTextContents();
      expect(who.length).toBeGreaterThanOrEqual(3);
      expect(who.every((text) => text.includes('web'))).toBe(true);
      expect(who.some((text) => text.includes('anonymous'))).toBe(false);
      await browser.close();
      await served.close();
    });
    expect(pageErrors).toEqual([]);
    // Only the deliberately refused edit.
    expect(consoleErrors).toEqual([expect.stringContaining('status of 400')]);
  } finally {
    openGate();
    await launched?.close();
    await served.close();
  }
});
