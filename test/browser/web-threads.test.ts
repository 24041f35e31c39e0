/**
 * Conversations on the web page in real Chromium, against the real dev server, a worker in this
 * process and the scripted LLM: a conversation started from the page, a chat message answered
 * in rendered Markdown (no planner call), then a task message whose agent opens a plan check —
 * shown inside the conversation and confirmed there, after which the turn's answer shows; a
 * follow-up task whose plan adopts the first task's step (shown reused in its plan check, never run
 * again, its result handed to the new step), steered from the send box while its step runs (and
 * another message refused), and its write approved inline; the turn links to its agent's own page, the conversations list
 * names the thread, and the conversation opened by its address is rebuilt from the server.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../harness/chromium';
import { ThreadClient } from '../../client/threads/thread-client';
import { reply } from '../fake-llm/replies';
import { byRoute, routeOf } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { serveOnLoopback } from '../harness/sse-client';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { threadTurnWorkflowId } from '../../workflows/contract/thread-contract';
import { waitUntil } from '../../testkit/wait-until';
import { agentFile } from '../harness/agents';
import { testApp } from '../harness/http-app';

const ARTIFACTS = join(__dirname, '..', 'artifacts');
const WAIT = { timeout: 30_000 };
const workspace = mkdtempSync(join(tmpdir(), 'web-threads-'));

const bed = agentTestbed({ CAIRN_WORKSPACE: workspace });

jest.setTimeout(180_000);

/** The turn of message `messageId` on the conversation page. */
const turn = (page: Page, messageId: string) => page.locator(`.turn[data-message-id="${messageId}"]`);

/** Every text of the model's messages in a recorded request, joined. */
const wholeText = (messages: { content?: unknown }[]): string =>
  messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))).join('\n');

/** The requests of a step's model calls, in order. */
const stepRequests = (stepId: string) => bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === stepId);

test('a conversation from the page: a chat reply, a task whose plan check is confirmed inline, a follow-up that reuses its result, steered and approved inline', async () => {
  let threadId = '';
  /** The first task turn's agent (the thread's second message). */
  const firstTurn = () => threadTurnWorkflowId(threadId, 2);
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const scripted = byRoute({
    chat: [reply.text('**Hello** from the thread.')],
    plan: [planReply(plan([step('s1', [], { title: 'Count the files' })]))],
    'step:s1': [finish('three files')],
    'step:s2': [
      reply.after(reply.toolCall('write_file', { path: 'count.txt', content: '3' }, 'w1'), gate),
      finish('wrote count.txt'),
    ],
    summary: [reply.text('## Counted\n\nThere are **three** files.'), reply.text('Wrote **count.txt**.')],
  });
  let plans = 0;
  // The follow-up's plan names the first task turn, known once the page made the thread: it
  // adopts that turn's count (never run again) and writes it.
  bed.llm.respondWith((request) =>
    routeOf(request) === 'plan' && ++plans === 2
      ? planReply(
          plan([step('s2', ['s1'], { title: 'Write the count' })], { reuse: [{ agentId: firstTurn(), stepId: 's1' }] }),
        )
      : scripted(request),
  );
  const app = testApp(bed.client, bed.config.taskQueue, {
    threads: new ThreadClient(bed.client, bed.config.taskQueue),
    eventTiming: { pollMs: 100, heartbeatMs: 1_000 },
  });
  const served = await serveOnLoopback(app);
  const { context, close: closeBrowser } = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  try {
    await withWorker(bed.config, async () => {
      const page = context.pages()[0] ?? (await context.newPage());
      page.on('pageerror', (err) => pageErrors.push(err.message));
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await page.goto(`${served.url}/`);

      // The navigation leads to the conversations; a new one opens with its first message.
      await page.getByRole('link', { name: 'Conversations' }).click();
      await page.waitForURL(/\/threads$/, WAIT);
      await page.getByRole('button', { name: 'New conversation' }).click();
      await page.waitForURL(/\/threads\/new$/, WAIT);
      await page.locator('#message').fill('Say hello');
      await page.locator('#send-kind').selectOption('chat');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL(/\/threads\/thread-/, WAIT);
      threadId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
      // Opened empty, then sent to: named after the message all the same.
      expect(threadId).toMatch(/^thread-say-hello-[0-9a-f]{8}$/);

      // The chat reply, rendered Markdown, under the message; answered without a plan.
      const chat = turn(page, 'msg-1');
      await chat.locator('.turn-answer strong', { hasText: 'Hello' }).waitFor(WAIT);
      expect(await chat.locator('.turn-text').textContent()).toBe('Say hello');
      expect(await chat.locator('.turn-disposition').textContent()).toBe('answered');
      expect(await chat.getAttribute('data-status')).toBe('completed');
      expect(await chat.locator('.turn-meta').textContent()).toBe('youchatansweredcompleted');
      expect(bed.llm.requestsFor('plan')).toHaveLength(0);
      expect(bed.llm.requestsFor('route-message')).toHaveLength(0);

      // A task with a plan check: the send says it started; its plan check shows in the conversation.
      expect(await page.locator('.send-policy').isVisible()).toBe(false);
      await page.locator('#message').fill('Count the files in the workspace');
      await page.locator('#send-kind').selectOption('task');
      await page.locator('#thread-send input[name="confirmPlan"]').check();
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('.send-result', { hasText: 'msg-2: started' }).waitFor(WAIT);
      const task = turn(page, 'msg-2');
      const check = task.locator('.interaction[data-kind="plan.check"]');
      await check.waitFor(WAIT);
      expect(await task.getAttribute('data-status')).toBe('running');
      expect(await task.locator('.turn-disposition').textContent()).toBe('started');
      // While the task runs, the send box asks what to do with another message.
      await page.locator('.send-policy').waitFor({ state: 'visible', ...WAIT });
      expect(wholeText(bed.llm.requestsFor('plan')[0]?.body.messages ?? [])).toContain(
        'Count the files in the workspace',
      );

      // Confirmed from the conversation, the turn runs to its answer, shown on the turn.
      await check.getByRole('button', { name: 'Confirm plan' }).click();
      await task.locator('.turn-answer h2', { hasText: 'Counted' }).waitFor(WAIT);
      await page.locator('.turn[data-message-id="msg-2"][data-status="completed"]').waitFor(WAIT);
      expect(await task.locator('.turn-answer strong').textContent()).toBe('three');
      expect(stepRequests('s1')).toHaveLength(1);
      await page.locator('.send-policy').waitFor({ state: 'hidden', ...WAIT });

      // A follow-up task: its plan check shows the first task's count adopted, not run again.
      await page.locator('#message').fill('Write the count to count.txt');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('.send-result', { hasText: 'msg-3: started' }).waitFor(WAIT);
      const followUpCheck = turn(page, 'msg-3').locator('.interaction[data-kind="plan.check"]');
      await followUpCheck.waitFor(WAIT);
      expect(await followUpCheck.textContent()).toContain(`s1: Count the files — reused from ${firstTurn()}`);
      expect(wholeText(bed.llm.requestsFor('plan')[1]?.body.messages ?? [])).toContain('three files');
      await followUpCheck.getByRole('button', { name: 'Confirm plan' }).click();
      // While its new step's model call is under way, a message steered into it.
      await page.locator('.send-policy').waitFor({ state: 'visible', ...WAIT });
      await waitUntil("the follow-up's step is calling the model", () =>
        stepRequests('s2').length >= 1 ? true : undefined,
      );
      await page.locator('#message').fill('Count only the markdown files');
      await page.locator('#send-kind').selectOption('');
      await page.locator('#send-policy').selectOption('steer');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('.send-result', { hasText: 'msg-4: steered' }).waitFor(WAIT);
      const steered = turn(page, 'msg-4');
      await page.locator('.turn[data-message-id="msg-4"][data-status="delivered"]').waitFor(WAIT);
      expect(await steered.locator('.turn-disposition').textContent()).toBe('steered');
      // It links to the agent it went into, which the follow-up's turn already shows.
      expect(await steered.locator('.turn-agent-details').count()).toBe(0);
      expect(await steered.locator('.turn-agent-link').getAttribute('href')).toBe(
        `/agents/${encodeURIComponent(threadTurnWorkflowId(threadId, 3))}`,
      );

      // Another, refused while the follow-up runs: the page says so on the message.
      await page.locator('#message').fill('And then delete everything');
      await page.locator('#send-policy').selectOption('reject');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('.send-result', { hasText: 'msg-5: rejected' }).waitFor(WAIT);
      await page.locator('.turn[data-message-id="msg-5"][data-status="rejected"]').waitFor(WAIT);
      expect(await turn(page, 'msg-5').locator('.turn-disposition').textContent()).toBe('rejected');

      // The step's write waits for approval, shown in the follow-up's turn and approved there.
      release();
      const followUp = turn(page, 'msg-3');
      const approval = followUp.locator('.interaction[data-kind="tool.approval"]');
      await approval.waitFor(WAIT);
      expect(await approval.locator('.tool-name').textContent()).toBe('write_file');
      await approval.getByRole('button', { name: 'Approve' }).click();
      await followUp.locator('.turn-answer strong', { hasText: 'count.txt' }).waitFor(WAIT);
      // A thread's turns share the thread's folder.
      expect(readFileSync(agentFile(workspace, threadId, 'count.txt'), 'utf8')).toBe('3');
      // The adopted step never ran again; the new one got its result, and heard the steer at its
      // next model call, after the approved write.
      expect(stepRequests('s1')).toHaveLength(1);
      expect(wholeText(stepRequests('s2')[0]?.body.messages ?? [])).toContain('three files');
      const afterWrite = stepRequests('s2')[1]?.body.messages.at(-1);
      expect(afterWrite?.role).toBe('user');
      expect(afterWrite?.content).toContain('Count only the markdown files');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'conversation-page.png'), fullPage: true });

      // The turn links to its agent's own page.
      const agentId = threadTurnWorkflowId(threadId, 2);
      const link = task.locator('.turn-agent-link');
      expect(await link.getAttribute('href')).toBe(`/agents/${encodeURIComponent(agentId)}`);
      const threadReads: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === `/api/threads/${encodeURIComponent(threadId)}`)
          threadReads.push(request.url());
      });
      await link.click();
      await page.locator('.agent-header code.agent-id', { hasText: agentId }).waitFor(WAIT);
      await page.locator('.final-answer h2', { hasText: 'Counted' }).waitFor(WAIT);
      // Left, the conversation is no longer read: none in three of its 1.5 s polling periods.
      const readsWhenLeft = threadReads.length;
      await page.waitForTimeout(4_500);
      expect(threadReads.length).toBe(readsWhenLeft);

      // The conversations list names the thread by its first message.
      await page.getByRole('link', { name: 'Conversations' }).click();
      await page.locator(`.thread-row[data-id="${threadId}"] a`, { hasText: 'Say hello' }).waitFor(WAIT);

      // Opened by its address, the conversation is rebuilt from the server, under the page's CSP.
      const response = await page.goto(`${served.url}/threads/${encodeURIComponent(threadId)}`);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      await turn(page, 'msg-2').locator('.turn-answer h2', { hasText: 'Counted' }).waitFor(WAIT);
      expect(await page.locator('.turn').count()).toBe(5);
      expect(await page.locator('.turn-agent-details[open]').count()).toBe(0);
    });
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  } finally {
    await closeBrowser();
    await served.close();
  }
});
