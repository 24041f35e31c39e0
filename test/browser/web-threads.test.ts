/**
 * Conversations on the web page in real Chromium, against the real dev server, a worker in this
 * process and the scripted LLM: a conversation started from the page, a chat message answered
 * in rendered Markdown (no planner call), then a task message whose agent opens a plan check —
 * shown inside the conversation and confirmed there, after which the turn's answer shows; the
 * turn links to its agent's own page, and the conversations list names the thread.
 */
import type { Page } from 'playwright-core';
import { launchChromium } from '../harness/chromium';
import { AgentClient } from '../../client/agent-client';
import { ThreadClient } from '../../client/thread-client';
import { createApp } from '../../client/http/create-app';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { serveOnLoopback } from '../harness/sse-client';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { threadTurnWorkflowId } from '../../workflows/contract/thread-contract';

const WAIT = { timeout: 30_000 };

const bed = agentTestbed();

jest.setTimeout(180_000);

/** The turn of message `messageId` on the conversation page. */
const turn = (page: Page, messageId: string) => page.locator(`.turn[data-message-id="${messageId}"]`);

/** Every text of the model's messages in a recorded request, joined. */
const wholeText = (messages: { content?: unknown }[]): string =>
  messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))).join('\n');

test('a conversation from the page: a chat reply, then a task turn whose plan check is confirmed inline', async () => {
  bed.llm.respondWith(
    byRoute({
      chat: [reply.text('**Hello** from the thread.')],
      plan: [planReply(plan([step('s1', [], { title: 'Count the files' })]))],
      'step:s1': [finish('three files')],
      summary: [reply.text('## Counted\n\nThere are **three** files.')],
    }),
  );
  const app = createApp({
    version: 'test',
    temporalHealthy: () => Promise.resolve(true),
    agents: new AgentClient(bed.client, bed.config.taskQueue),
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
      const threadId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');

      // The chat reply, rendered Markdown, under the message; answered without a plan.
      const chat = turn(page, 'msg-1');
      await chat.locator('.turn-answer strong', { hasText: 'Hello' }).waitFor(WAIT);
      expect(await chat.locator('.turn-text').textContent()).toBe('Say hello');
      expect(await chat.locator('.turn-disposition').textContent()).toBe('answered');
      expect(await chat.getAttribute('data-status')).toBe('completed');
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
      expect(bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1')).toHaveLength(1);
      await page.locator('.send-policy').waitFor({ state: 'hidden', ...WAIT });

      // The turn links to its agent's own page.
      const agentId = threadTurnWorkflowId(threadId, 2);
      const link = task.locator('.turn-agent-link');
      expect(await link.getAttribute('href')).toBe(`/agents/${encodeURIComponent(agentId)}`);
      await link.click();
      await page.locator('.agent-header code.agent-id', { hasText: agentId }).waitFor(WAIT);
      await page.locator('.final-answer h2', { hasText: 'Counted' }).waitFor(WAIT);

      // The conversations list names the thread by its first message.
      await page.getByRole('link', { name: 'Conversations' }).click();
      await page.locator(`.thread-row[data-id="${threadId}"] a`, { hasText: 'Say hello' }).waitFor(WAIT);
    });
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  } finally {
    await closeBrowser();
    await served.close();
  }
});
