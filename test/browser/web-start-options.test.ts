/**
 * The start form's Options section in real Chromium against the real HTTP API and dev server:
 * the options typed in land in the started workflow's input (read back from its history), empty
 * ones are not sent, a value the API refuses shows its message beside that field; with a
 * registered graph picked, the planning option is disabled and not sent. Untouched, the form
 * starts an agent that may ask and waits for its plan check.
 */
import type { Page } from 'playwright-core';
import { launchChromium } from '../harness/chromium';
import { agentTestbed } from '../harness/agent-testbed';
import { testApp } from '../harness/http-app';
import { serveOnLoopback } from '../harness/sse-client';
import { startedInput } from '../harness/started-input';
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { waitUntil } from '../../testkit/wait-until';

const WAIT = { timeout: 30_000 };

const bed = agentTestbed();

jest.setTimeout(120_000);

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

/** Records every body the page posts to start an agent; `answer` (if set) replies instead of the API. */
async function recordStarts(page: Page, answer?: { status: number; body: unknown }): Promise<unknown[]> {
  const posted: unknown[] = [];
  await page.route('**/api/agents', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    posted.push(route.request().postDataJSON());
    if (!answer) return route.fallback();
    return route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) });
  });
  return posted;
}

const option = (page: Page, name: string) => page.locator(`.start-options [name="${name}"]`);

test('options typed in are started with; a refused number is shown beside its field', async () => {
  const served = await serveOnLoopback(testApp(bed.client, bed.config.taskQueue));
  let started: string | undefined;
  try {
    await withPage(async (page) => {
      const posted = await recordStarts(page);
      await page.goto(`${served.url}/`);
      await page.locator('#task').fill('Write a brief on tides');
      await page.locator('.start-options > summary').click();
      await option(page, 'modelName').fill('gpt-test');
      await option(page, 'systemPrompt').fill('You are terse.');
      await option(page, 'tools').fill('read_file, list_files');
      await option(page, 'maxStepRounds').fill('0');
      await option(page, 'maxParallelSteps').fill('2');
      await option(page, 'deadlineMinutes').fill('1.5');
      await option(page, 'replanAfter').selectOption('each');
      await option(page, 'onStepFailure').selectOption('continue');
      await page.getByRole('button', { name: 'Start agent' }).click();

      // The API refuses 0 rounds, naming the field: its message sits beside that field.
      const row = page.locator('.start-options [data-row="limits.maxStepRounds"]');
      await row.locator('.field-error:not(:empty)').waitFor(WAIT);
      expect(await row.locator('.field-error').textContent()).toContain('limits.maxStepRounds');
      expect(await option(page, 'maxStepRounds').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#new-agent > .error').textContent()).toContain('limits.maxStepRounds');
      expect(page.url()).toBe(`${served.url}/`);

      await option(page, 'maxStepRounds').fill('12');
      await page.getByRole('button', { name: 'Start agent' }).click();
      await page.waitForURL(/\/agents\/[^/]+$/, WAIT);
      started = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

      const sent = {
        task: 'Write a brief on tides',
        mode: { plan: true, ask: true, confirmPlan: true, replanAfter: 'each' },
        model: { name: 'gpt-test' },
        systemPrompt: 'You are terse.',
        tools: ['read_file', 'list_files'],
        limits: { maxStepRounds: 12, maxParallelSteps: 2, deadlineMs: 90_000 },
        onStepFailure: 'continue',
      };
      // Empty fields (token and cost budget, on rounds exhausted) are not sent at all.
      expect(posted).toEqual([{ ...sent, limits: { ...sent.limits, maxStepRounds: 0 } }, sent]);
      expect(await startedInput(bed.client, started)).toMatchObject(sent);
    });
  } finally {
    if (started !== undefined) await bed.client.workflow.getHandle(started).terminate('test over');
    await served.close();
  }
});

test('with a registered graph picked, the planning option is disabled and not sent; the rest is', async () => {
  const served = await serveOnLoopback(testApp(bed.client, bed.config.taskQueue));
  try {
    await withPage(async (page) => {
      const listed = {
        graphs: [{ name: 'review-loop', description: reviewLoopGraph.description, graph: reviewLoopGraph }],
      };
      await page.route('**/api/graphs', (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(listed) }),
      );
      const refusal = { error: { code: 'INVALID_INPUT', message: 'recorded by the test' } };
      const posted = await recordStarts(page, { status: 400, body: refusal });
      await page.goto(`${served.url}/`);
      const picker = page.locator('select[name="graph"]');
      await picker.waitFor(WAIT);
      await page.locator('#task').fill('Write a haiku');
      await page.locator('.start-options > summary').click();
      await option(page, 'replanAfter').selectOption('each');
      await option(page, 'tokenBudget').fill('5000');
      await picker.selectOption('review-loop');
      expect(await option(page, 'replanAfter').isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Start agent' }).click();
      await waitUntil('the page posts', () => posted.length === 1 || undefined);
      expect(posted).toEqual([
        {
          task: 'Write a haiku',
          graphName: 'review-loop',
          mode: { confirmPlan: true },
          limits: { tokenBudget: 5000 },
        },
      ]);
      await picker.selectOption('');
      expect(await option(page, 'replanAfter').isDisabled()).toBe(false);
    });
  } finally {
    await served.close();
  }
});

test('the form starts an agent that plans, may ask and waits for its plan check unless unticked', async () => {
  const served = await serveOnLoopback(testApp(bed.client, bed.config.taskQueue));
  try {
    await withPage(async (page) => {
      const refusal = { error: { code: 'INVALID_INPUT', message: 'recorded by the test' } };
      const posted = await recordStarts(page, { status: 400, body: refusal });
      await page.goto(`${served.url}/`);
      for (const name of ['plan', 'ask', 'confirmPlan'])
        expect(await page.locator(`#new-agent input[name="${name}"]`).isChecked()).toBe(true);
      await page.locator('#task').fill('Compare three note-taking apps');
      await page.getByRole('button', { name: 'Start agent' }).click();
      await waitUntil('the page posts', () => posted.length === 1 || undefined);
      expect(posted).toEqual([
        { task: 'Compare three note-taking apps', mode: { plan: true, ask: true, confirmPlan: true } },
      ]);
    });
  } finally {
    await served.close();
  }
});
