/**
 * A question is answered on the page by the person it was asked of, in real Chromium against the
 * real dev server and worker: an operator without `approver` who started an agent (its
 * `principal`) gets the form of its `ask` question and answers it, while the plan check that
 * follows — which needs `approver` — is shown to them locked, with the reason.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuthenticator } from '../../client/http/auth/create-authenticator';
import { sha256Hex } from '../../client/http/auth/token-table';
import { agentWorkflow } from '../../workflows/agent/agent-workflow';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { stateOf, waitForInteraction } from '../harness/agents';
import { launchChromium, type LaunchedChromium } from '../harness/chromium';
import { pasteToken } from '../harness/page-token';
import { finish, plan, planReply, step } from '../harness/plans';
import { serveOnLoopback } from '../harness/sse-client';
import { uniqueId, withWorker } from '../harness/test-env';
import { testApp } from '../harness/http-app';

const WAIT = { timeout: 30_000 };
const TOKEN = 'web-asked-of-token-of-otto-0123456789';

const bed = agentTestbed();

jest.setTimeout(120_000);

test("an operator answers their own agent's question on the page; its plan check, which needs approver, stays locked", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'web-asked-of-'));
  const tokensFile = join(dir, 'tokens.json');
  writeFileSync(
    tokensFile,
    JSON.stringify([{ principal: 'otto', name: 'Otto Ops', roles: ['operator'], tokenSha256: sha256Hex(TOKEN) }]),
  );
  const auth = await createAuthenticator({ mode: 'tokens', tokensFile }, '127.0.0.1');
  const served = await serveOnLoopback(
    testApp(bed.client, bed.config.taskQueue, { eventTiming: { pollMs: 100, heartbeatMs: 1_000 }, auth }),
  );
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'query', prompt: 'Who is the audience?' }, 'ask-q'),
        planReply(plan([step('s1')])),
      ],
      'step:s1': [finish('written')],
      summary: [reply.text('done')],
    }),
  );
  let launched: LaunchedChromium | undefined;
  try {
    launched = await launchChromium();
    const page = launched.page;
    await withWorker(bed.config, async () => {
      // Started as the API starts it for Otto: his principal in the input.
      const agent = await bed.client.workflow.start(agentWorkflow, {
        taskQueue: bed.config.taskQueue,
        workflowId: uniqueId('agent-asked-of'),
        args: [
          {
            task: 'Write a brief',
            mode: { ask: true, confirmPlan: true },
            principal: { id: 'otto', roles: ['operator'], authenticatedBy: 'token' },
          },
        ],
      });
      const question = await waitForInteraction(agent, 'ask.query');
      expect(question.askedOf).toEqual({ id: 'otto', authenticatedBy: 'token' });
      await pasteToken(page, served.url, TOKEN);
      await page.goto(`${served.url}/agents/${encodeURIComponent(agent.workflowId)}`);
      const query = page.locator('.interaction[data-kind="ask.query"]:not(.sent)');
      await query.getByText('Who is the audience?').waitFor(WAIT);
      expect(await query.locator('.why-locked').count()).toBe(0);
      await query.getByLabel('answer').fill('engineers');
      await query.getByRole('button', { name: 'Send' }).click();

      const check = await waitForInteraction(agent, 'plan.check');
      expect(check.askedOf).toBeUndefined();
      const locked = page.locator(`.interaction[data-kind="plan.check"][data-id="${check.id}"]`);
      await locked.waitFor(WAIT);
      expect(await locked.locator('.why-locked').textContent()).toContain('answering needs the approver role');
      expect(await locked.getByRole('button').count()).toBe(0);
      const state = await stateOf(agent);
      expect(state.interactions.find((i) => i.id === question.id)).toMatchObject({
        status: 'answered',
        answer: { text: 'engineers' },
        actor: { id: 'otto', roles: ['operator'], authenticatedBy: 'token' },
      });
      await launched?.close();
      launched = undefined;
      await served.close();
      await agent.cancel();
    });
  } finally {
    await launched?.close();
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
