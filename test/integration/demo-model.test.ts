/**
 * The offline demo model: with no LLM endpoint configured, an agent asks one
 * question, proposes a plan with parallel steps, calls a write tool that needs approval, and
 * summarises — and its state says the answers came from the demo model.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { loadConfig } from '../../config/config';
import { answer, startAgent, stateOf, waitForInteraction, agentFile } from '../harness/agents';
import { runInfo } from '../harness/run-info';
import { closeClient, connectClient, uniqueId, withWorker } from '../harness/test-env';

let client: Client;
beforeAll(async () => {
  client = await connectClient();
});
afterAll(async () => {
  await closeClient(client);
});

test('every mechanism, offline, clearly labelled', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'demo-'));
  const config = loadConfig({
    TEMPORAL_ADDRESS: runInfo().temporalAddress,
    CAIRN_TASK_QUEUE: uniqueId('demo-queue'),
    CAIRN_WORKSPACE: workspace,
  });
  expect(config.llm.demo).toBe(true);
  await withWorker(config, async () => {
    const handle = await startAgent(client, config, {
      task: 'Explain durable execution',
      mode: { ask: true, confirmPlan: true },
    });
    const form = await waitForInteraction(handle, 'ask.form');
    await answer(handle, form.id, { values: { audience: 'engineers' } });
    const check = await waitForInteraction(handle, 'plan.check');
    const parallel = (check.plan?.steps ?? []).filter((s) => s.depends_on.length === 0);
    expect(parallel.length).toBeGreaterThanOrEqual(2);
    await answer(handle, check.id, { decision: 'confirm' });
    const approval = await waitForInteraction(handle, 'tool.approval');
    expect(approval.tool).toBe('write_file');
    await answer(handle, approval.id, { decision: 'approve', digest: approval.digest });
    const result = await handle.result();
    expect(result.answer).toContain('Offline demo answer');
    const state = await stateOf(handle);
    expect(state).toMatchObject({ phase: 'completed', model: 'cairn-offline-demo', demo: true });
    expect(readFileSync(agentFile(workspace, handle.workflowId, 'demo/note.md'), 'utf8')).toContain(
      'offline demo model',
    );
  });
});
