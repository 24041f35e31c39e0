/**
 * The page's controls the first browser test does not reach, in real Chromium (Debian's
 * /usr/bin/chromium driven by playwright-core) against the real dev server, a worker in this
 * process and the scripted LLM, with API-token authentication (an operator and approver): a
 * token budget raised (a raise at or under what was used refused with the server's message
 * first, nothing changed) and one stopped, an agent paused and resumed from its header, a
 * failed step retried and another skipped, and a query and single and multiple selects
 * answered. Four agents run at once, a fifth after them; one page visits each. For every flow the test checks
 * what the agent's state became and what the page shows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from '../harness/chromium';
import { AgentClient } from '../../client/agents/agent-client';
import { DEFAULT_QUERY_TIMEOUT_MS } from '../../client/unanswered-query';
import { noAuthentication, type Authenticator } from '../../client/http/auth/authenticate';
import { createAuthenticator } from '../../client/http/auth/create-authenticator';
import { sha256Hex } from '../../client/http/auth/token-table';
import type { AgentInput } from '../../workflows/model/agent/agent-input';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { agentWorkflow } from '../../workflows/agent/agent-workflow';
import { isTerminalPhase } from '../../workflows/model/state/agent-phases';
import { reply, type ScriptedReply, type ScriptedUsage } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { RecordedRequest, ReplyFunction } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { serveOnLoopback } from '../harness/sse-client';
import { stateOf, waitForInteraction, waitForState, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNoNewRequests } from '../harness/no-new-requests';
import { pasteToken } from '../harness/page-token';
import { uniqueId, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { appOver } from '../harness/http-app';

const WAIT = { timeout: 30_000 };
/** Several times what a call takes to reach the fake once a step starts it. */
const QUIET_WINDOW_MS = 1000;
const TOKEN = 'web-controls-token-of-olivia-0123456789';

const bed = agentTestbed();

jest.setTimeout(180_000);

const usage = (total: number): ScriptedUsage => ({ promptTokens: total / 2, completionTokens: total / 2 });
/** A round that calls a tool the step does not have: the step goes on to another round. */
const goOn = (total: number) => reply.toolCalls([{ name: 'no_such_tool', arguments: {} }], { usage: usage(total) });
const finishUsing = (result: string, total: number) =>
  reply.toolCalls([{ name: 'finish_step', arguments: { result } }], { usage: usage(total) });

/** The control of the open interaction of `kind` (and step, when given). */
const control = (page: Page, kind: string, stepId?: string) => {
  const all = page.locator(`.interaction[data-kind="${kind}"]:not(.sent)`);
  return stepId === undefined ? all : all.filter({ hasText: `step ${stepId}` });
};

interface Served {
  url: string;
  /** Closes the server and its event streams; safe to call twice. */
  close(): Promise<void>;
}

/**
 * The client the servers use, counting its calls in flight: a state query still out when the
 * worker stops is never answered, so the test leaves the worker only once they all came back.
 */
function countingClient(): { agents: AgentClient; inFlight: () => number } {
  let count = 0;
  const agents = new Proxy(new AgentClient(bed.client, bed.config.taskQueue), {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        const result: unknown = Reflect.apply(value, target, args);
        if (!(result instanceof Promise)) return result;
        count += 1;
        return (result as Promise<unknown>).finally(() => (count -= 1));
      };
    },
  });
  return { agents, inFlight: () => count };
}

/** Serves the real app (API + page) for the test's task queue on a free loopback port. */
async function serveApp(auth: Authenticator, agents: AgentClient): Promise<Served> {
  const app = appOver(agents, { eventTiming: { pollMs: 100, heartbeatMs: 1_000 }, auth });
  return serveOnLoopback(app);
}

/** The agent's result once it ended; a wait that fails in time (and says so) when it does not. */
async function ended(handle: AgentHandle) {
  await waitForState(handle, `${handle.workflowId} ends`, (s) => isTerminalPhase(s.phase));
  return handle.result();
}

/** The tool result the planner got back for its call `callId`, parsed. */
function toolReply(requests: RecordedRequest[], callId: string): unknown {
  for (const request of requests) {
    const message = request.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
    if (message && typeof message.content === 'string') return JSON.parse(message.content);
  }
  return undefined;
}

test('budget raise and stop, pause and resume, step-failure retry and skip, ask query and select — from the page', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'web-controls-'));
  const tokensFile = join(dir, 'tokens.json');
  writeFileSync(
    tokensFile,
    JSON.stringify([
      { principal: 'olivia', name: 'Olivia Ops', roles: ['operator', 'approver'], tokenSha256: sha256Hex(TOKEN) },
    ]),
  );
  const auth = await createAuthenticator({ mode: 'tokens', tokensFile }, '127.0.0.1');
  const { agents, inFlight } = countingClient();
  const served = await serveApp(auth, agents);
  const url = served.url;
  // A second server without authentication, whose page follows events with no token (as a
  // page signed in by a session cookie does): it must see a pause made elsewhere.
  const unauthenticated = await serveApp(noAuthentication(), agents);

  // One script per agent, picked by the X-Cairn-Agent header: the agents run at once.
  const scripts = new Map<string, ReplyFunction>();
  bed.llm.respondWith((request) => scripts.get(request.headers['x-cairn-agent'] ?? '')?.(request));
  const requestsOf = (handle: AgentHandle) =>
    bed.llm.requests.filter((r) => r.headers['x-cairn-agent'] === handle.workflowId);
  const start = (name: string, input: AgentInput, routes: Record<string, ScriptedReply[]>): Promise<AgentHandle> => {
    const workflowId = uniqueId(`agent-${name}`);
    scripts.set(workflowId, byRoute(routes));
    return bed.client.workflow.start(agentWorkflow, { taskQueue: bed.config.taskQueue, workflowId, args: [input] });
  };

  let openGate = () => undefined as void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));

  let launched: LaunchedChromium | undefined;
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  try {
    launched = await launchChromium({ viewport: { width: 1280, height: 1000 } });
    const browser = launched.context;
    await withWorker(bed.config, async () => {
      const [raised, stopped, failing, asking] = await Promise.all([
        // 150 tokens in the first round cross a budget of 100.
        start(
          'raise',
          { task: 'Spend and be raised', mode: { plan: false }, limits: { tokenBudget: 100 } },
          { 'step:task': [goOn(150), finishUsing('raised result', 10)] },
        ),
        // a finishes; b's first round crosses the budget.
        start(
          'stop',
          { task: 'Spend and be stopped', limits: { tokenBudget: 100 } },
          {
            plan: [reply.json(plan([step('a'), step('b', ['a'])]), { usage: usage(10) })],
            'step:a': [finishUsing('result-a', 10)],
            'step:b': [goOn(200)],
          },
        ),
        // Both steps fail (the model refuses the request): s1 is retried, s2 skipped.
        start(
          'failure',
          { task: 'Fail twice', onStepFailure: 'ask' },
          {
            plan: [planReply(plan([step('s1'), step('s2')]))],
            'step:s1': [reply.error(400, 'bad request'), finish('one, second time')],
            'step:s2': [reply.error(400, 'bad request')],
            summary: [reply.text('recovered answer')],
          },
        ),
        start(
          'ask',
          { task: 'Ask me things', mode: { ask: true } },
          {
            plan: [
              reply.toolCall('ask_user', { kind: 'query', prompt: 'Who is the audience?' }, 'ask-q'),
              reply.toolCall('ask_user', { kind: 'select', prompt: 'Tone?', options: ['formal', 'casual'] }, 'ask-s'),
              reply.toolCall(
                'ask_user',
                { kind: 'select', prompt: 'Sections?', options: ['intro', 'body', 'faq'], multiple: true },
                'ask-m',
              ),
              planReply(plan([step('s1')])),
            ],
            'step:s1': [finish('written')],
            summary: [reply.text('asked answer')],
          },
        ),
      ]);
      const page = browser.pages()[0] ?? (await browser.newPage());
      // Pasted once, kept for every page after (before signing in, the page's calls answer 401).
      await pasteToken(page, url, TOKEN);
      page.on('pageerror', (err) => pageErrors.push(err.message));
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      const open = async (handle: AgentHandle) => {
        await page.goto(`${url}/agents/${encodeURIComponent(handle.workflowId)}`);
        await page.locator('.agent-header h1.task').waitFor(WAIT);
      };
      const answeredBy = (state: AgentState, id: string) => state.interactions.find((i) => i.id === id);

      // Budget → raise: a raise not above what was used is refused in the page, nothing changes.
      const raiseBudget = await waitForInteraction(raised, 'budget');
      await open(raised);
      const raiseControl = control(page, 'budget');
      await raiseControl.getByText('Used 150 of 100 tokens (cost unknown).').waitFor(WAIT);
      await page.locator('[data-phase="paused"]').first().waitFor(WAIT);
      const beforeRaise = await stateOf(raised);
      await raiseControl.getByLabel('new budget').fill('150');
      await raiseControl.getByRole('button', { name: 'Raise budget' }).click();
      await raiseControl
        .locator('.server-error', { hasText: 'must be greater than the 150 tokens already used' })
        .waitFor(WAIT);
      expect(await stateOf(raised)).toEqual(beforeRaise);
      await raiseControl.getByLabel('new budget').fill('1000');
      await raiseControl.getByRole('button', { name: 'Raise budget' }).click();
      expect(await ended(raised)).toMatchObject({ status: 'completed', answer: 'raised result' });
      const raisedState = await stateOf(raised);
      expect(raisedState.tokenBudget).toBe(1000);
      expect(answeredBy(raisedState, raiseBudget.id)).toMatchObject({
        status: 'answered',
        by: 'olivia',
        // The page sent her pasted token: a bearer request, whatever the page calls itself.
        actor: { id: 'olivia', method: 'api', authenticatedBy: 'token' },
      });
      await page.locator('[data-phase="completed"]').first().waitFor(WAIT);
      await page.locator('.final-answer', { hasText: 'raised result' }).waitFor(WAIT);

      // Budget → stop: the agent ends stopped with a's result in a mechanical summary.
      const stopBudget = await waitForInteraction(stopped, 'budget');
      await open(stopped);
      const stopControl = control(page, 'budget');
      await stopControl.getByText('Used 220 of 100 tokens (cost unknown).').waitFor(WAIT);
      // The raise it offers would be accepted: above the 220 tokens used, not just twice the budget.
      expect(Number(await stopControl.getByLabel('new budget').inputValue())).toBeGreaterThan(220);
      await stopControl.getByRole('button', { name: 'Stop' }).click();
      expect((await ended(stopped)).status).toBe('stopped');
      const stoppedState = await stateOf(stopped);
      expect(stoppedState).toMatchObject({ phase: 'stopped', stopReason: 'budget' });
      expect(stoppedState.steps.map((s) => [s.id, s.status])).toEqual([
        ['a', 'completed'],
        ['b', 'cancelled'],
      ]);
      expect(answeredBy(stoppedState, stopBudget.id)).toMatchObject({ status: 'answered', by: 'olivia' });
      expect(requestsOf(stopped).map((r) => r.headers['x-cairn-purpose'])).toEqual(['plan', 'step', 'step']);
      await page.locator('[data-phase="stopped"]').first().waitFor(WAIT);
      await page.locator('.final-answer', { hasText: 'result-a' }).waitFor(WAIT);
      await page.locator('tr[data-step-id="b"] .status', { hasText: 'cancelled' }).waitFor(WAIT);
      expect(await page.getByRole('button', { name: 'Pause agent' }).count()).toBe(0);

      // Step failure: both steps wait for a person; retry s1 (it completes), skip s2.
      await waitForInteraction(failing, 'step.failure', 's1');
      await waitForInteraction(failing, 'step.failure', 's2');
      await open(failing);
      const retry = control(page, 'step.failure', 's1');
      expect(await retry.locator('pre').textContent()).toContain('LLM_REJECTED');
      await retry.getByRole('button', { name: 'Retry' }).click();
      await control(page, 'step.failure', 's2').getByRole('button', { name: 'Skip' }).click();
      expect(await ended(failing)).toMatchObject({ status: 'completed', answer: 'recovered answer' });
      const failedState = await stateOf(failing);
      expect(failedState.steps.map((s) => [s.id, s.status, s.attempts])).toEqual([
        ['s1', 'completed', 2],
        ['s2', 'skipped', 1],
      ]);
      const failures = failedState.interactions.map((i) => [i.kind, i.stepId, i.status, i.by]);
      // The two failures open in whichever order the steps failed.
      expect(failures.sort((x, y) => String(x[1]).localeCompare(String(y[1])))).toEqual([
        ['step.failure', 's1', 'answered', 'olivia'],
        ['step.failure', 's2', 'answered', 'olivia'],
      ]);
      await page.locator('tr[data-step-id="s1"] .status', { hasText: 'completed' }).waitFor(WAIT);
      await page.locator('tr[data-step-id="s2"] .status', { hasText: 'skipped' }).waitFor(WAIT);
      await page.locator('.final-answer', { hasText: 'recovered answer' }).waitFor(WAIT);

      // Ask: a query, then a single select, then a multiple one.
      await open(asking);
      const query = control(page, 'ask.query');
      await query.getByText('Who is the audience?').waitFor(WAIT);
      await query.getByLabel('answer').fill('engineers');
      await query.getByRole('button', { name: 'Send' }).click();
      const single = control(page, 'ask.select').filter({ hasText: 'Tone?' });
      await single.getByLabel('casual').check();
      await single.getByRole('button', { name: 'Send' }).click();
      const multiple = control(page, 'ask.select').filter({ hasText: 'Sections?' });
      await multiple.getByLabel('intro').waitFor(WAIT);
      expect(await multiple.locator('input[type="checkbox"]').count()).toBe(3);
      await multiple.getByLabel('intro').check();
      await multiple.getByLabel('faq').check();
      await multiple.getByRole('button', { name: 'Send' }).click();
      expect(await ended(asking)).toMatchObject({ status: 'completed', answer: 'asked answer' });
      const planner = requestsOf(asking).filter((r) => r.headers['x-cairn-purpose'] === 'plan');
      expect(toolReply(planner, 'ask-q')).toEqual({ text: 'engineers' });
      expect(toolReply(planner, 'ask-s')).toEqual({ values: ['casual'] });
      expect(toolReply(planner, 'ask-m')).toEqual({ values: ['intro', 'faq'] });
      expect((await stateOf(asking)).interactions.map((i) => [i.kind, i.status, i.by])).toEqual([
        ['ask.query', 'answered', 'olivia'],
        ['ask.select', 'answered', 'olivia'],
        ['ask.select', 'answered', 'olivia'],
      ]);
      await page.locator('.final-answer', { hasText: 'asked answer' }).waitFor(WAIT);

      // Pause mid-ReAct from the header, with every other agent finished: nothing new starts.
      // Started only now: its first call is in flight until the test opens the gate, and a call
      // held longer than the LLM client's timeout would be retried.
      const paused = await start(
        'pause',
        { task: 'Hold still', mode: { plan: false } },
        { 'step:task': [reply.after(goOn(20), gate), finish('resumed result')] },
      );
      await waitUntil('the paused agent is mid-ReAct', () => (requestsOf(paused).length === 1 ? true : undefined));
      await open(paused);
      const watcher = await browser.newPage();
      watcher.on('pageerror', (err) => pageErrors.push(err.message));
      await watcher.goto(`${unauthenticated.url}/agents/${encodeURIComponent(paused.workflowId)}`);
      await watcher.locator('[data-phase="executing"]').first().waitFor(WAIT);
      await page.getByRole('button', { name: 'Pause agent' }).click();
      const held = await waitForState(paused, 'paused', (s) => s.phase === 'paused');
      expect(held.hold).toMatchObject({ reasons: ['pause'], by: 'olivia' }); // the signed-in principal
      await page.locator('[data-phase="paused"]').first().waitFor(WAIT);
      await page.getByRole('button', { name: 'Resume agent' }).waitFor(WAIT);
      // The watcher hears of the pause by its event alone (nothing else happens meanwhile).
      await watcher.locator('[data-phase="paused"]').first().waitFor(WAIT);
      await watcher.getByRole('button', { name: 'Resume agent' }).waitFor(WAIT);
      openGate(); // the call in flight finishes and counts; the next one must wait
      await waitForState(paused, 'the first round counted', (s) => s.steps[0]?.rounds === 1);
      await expectNoNewRequests(bed.llm, bed.llm.requests.length, QUIET_WINDOW_MS);
      expect(requestsOf(paused)).toHaveLength(1);
      expect((await stateOf(paused)).phase).toBe('paused');
      await page.getByRole('button', { name: 'Resume agent' }).click();
      expect(await ended(paused)).toMatchObject({ status: 'completed', answer: 'resumed result' });
      const resumedState = await stateOf(paused);
      expect(resumedState.hold).toBeUndefined();
      expect(resumedState.events.map((e) => e.type)).toEqual(expect.arrayContaining(['agent.paused', 'agent.resumed']));
      await page.locator('[data-phase="completed"]').first().waitFor(WAIT);
      await page.locator('.timeline li[data-type="agent.resumed"]').waitFor(WAIT);
      expect(await page.getByRole('button', { name: /^(Pause|Resume) agent$/ }).count()).toBe(0);
      // The page and its event stream go while the worker still answers the state query.
      await browser.close();
      await served.close();
      await unauthenticated.close();
      // A state query comes back within the query timeout at the latest, answered or not.
      await waitUntil("the servers' calls are answered", () => Promise.resolve(inFlight() === 0 ? true : undefined), {
        timeoutMs: 2 * DEFAULT_QUERY_TIMEOUT_MS,
      });
    });
    expect(pageErrors).toEqual([]);
    // Only the deliberately refused raise — besides reads no worker answered in time on a loaded
    // machine (503 AGENT_UNAVAILABLE), which the page shows as stale and reads again.
    const unexpected = consoleErrors.filter((text) => !text.includes('status of 503'));
    expect(unexpected).toEqual([expect.stringContaining('status of 400')]);
  } finally {
    await launched?.close();
    await served.close();
    await unauthenticated.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
