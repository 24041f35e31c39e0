/**
 * The offline demo model: with no LLM endpoint configured, an agent asks one
 * question, proposes a plan with parallel steps, reads the file it was given and quotes it, calls
 * a write tool that needs approval and says why, and summarises — and its state says the answers
 * came from the demo model. A viewer of its live output sees the text arrive in pieces, and the
 * reasoning on its own channel. A file sent with a thread's message is read by its task's steps.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { loadConfig } from '../../config/config';
import { agentWorkspaceDir } from '../../config/agent-workspace';
import { ThreadClient } from '../../client/threads/thread-client';
import { threadTurnWorkflowId } from '../../workflows/contract/thread-contract';
import type { agentWorkflow } from '../../workflows/agent/agent-workflow';
import { LiveHub } from '../../client/live/live-hub';
import { answer, startAgent, stateOf, waitForInteraction, agentFile, agentFolder } from '../harness/agents';
import { testApp } from '../harness/http-app';
import { deltasOf } from '../harness/live-view';
import { runInfo } from '../harness/run-info';
import { connectSse, serveOnLoopback } from '../harness/sse-client';
import { closeClient, connectClient, uniqueId, withWorker } from '../harness/test-env';

let client: Client;
beforeAll(async () => {
  client = await connectClient();
});
afterAll(async () => {
  await closeClient(client);
});

const NOTES = 'Durable execution keeps a workflow running through crashes by replaying its history.';

test('every mechanism, offline, clearly labelled', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'demo-'));
  const config = loadConfig({
    TEMPORAL_ADDRESS: runInfo().temporalAddress,
    CAIRN_TASK_QUEUE: uniqueId('demo-queue'),
    CAIRN_WORKSPACE: workspace,
  });
  expect(config.llm.demo).toBe(true);
  const agentId = uniqueId('agent-demo');
  writeFileSync(join(agentFolder(config, agentId), 'notes.txt'), NOTES);
  await withWorker(config, async () => {
    const handle = await startAgent(
      client,
      config,
      { task: 'Explain durable execution', files: ['notes.txt'], mode: { ask: true, confirmPlan: true } },
      agentId,
    );
    const served = await serveOnLoopback(
      testApp(client, config.taskQueue, { live: new LiveHub({ client, retryMs: 100 }) }),
    );
    const sse = await connectSse(`${served.url}/api/agents/${encodeURIComponent(agentId)}/stream`);
    try {
      const form = await waitForInteraction(handle, 'ask.form');
      await answer(handle, form.id, { values: { audience: 'engineers' } });
      const check = await waitForInteraction(handle, 'plan.check');
      const parallel = (check.plan?.steps ?? []).filter((s) => s.depends_on.length === 0);
      expect(parallel.length).toBeGreaterThanOrEqual(2);
      await answer(handle, check.id, { decision: 'confirm' });
      const approval = await waitForInteraction(handle, 'tool.approval');
      expect(approval.tool).toBe('write_file');
      // The model said why in the same reply as its call, and the approval shows it.
      expect(approval.why).toContain('[offline demo model] I write the note');
      await answer(handle, approval.id, { decision: 'approve', digest: approval.digest });
      const result = await handle.result();
      expect(result.answer).toContain('Offline demo answer');
      // The steps that read the given file quote it, and the answer carries their quotes.
      expect(result.answer).toContain(`notes.txt says: "${NOTES}"`);
      const state = await stateOf(handle);
      expect(state).toMatchObject({ phase: 'completed', model: 'cairn-offline-demo', demo: true });
      expect(state.steps.find((s) => s.id === 'facts')?.result).toContain(NOTES);
      const note = readFileSync(agentFile(workspace, handle.workflowId, 'demo/note.md'), 'utf8');
      expect(note).toContain('offline demo model');
      expect(note).toContain(NOTES);
      await sse.closed;
      // The summary's text came in several deltas, its reasoning on the reasoning channel.
      const summary = deltasOf(sse.frames).filter((d) => d.purpose === 'summary');
      expect(summary.filter((d) => d.channel === 'text').length).toBeGreaterThan(1);
      expect(
        summary
          .filter((d) => d.channel === 'reasoning')
          .map((d) => d.text)
          .join(''),
      ).not.toBe('');
    } finally {
      sse.close();
      await served.close();
    }
  });
});

test("a file sent with a thread's message is read and quoted by its task's steps", async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'demo-'));
  const config = loadConfig({
    TEMPORAL_ADDRESS: runInfo().temporalAddress,
    CAIRN_TASK_QUEUE: uniqueId('demo-queue'),
    CAIRN_WORKSPACE: workspace,
  });
  const threads = new ThreadClient(client, config.taskQueue);
  await withWorker(config, async () => {
    const { id } = await threads.open({});
    // Where an upload to the thread is stored: `inputs/<name>` in the folder its turns share.
    const inputs = join(agentWorkspaceDir(workspace, id), 'inputs');
    mkdirSync(inputs, { recursive: true });
    writeFileSync(join(inputs, 'notes.txt'), NOTES);
    expect(await threads.send(id, { text: 'what do these notes say?', files: ['inputs/notes.txt'] })).toEqual({
      messageId: 'msg-1',
      disposition: 'started',
    });
    const turn = client.workflow.getHandle<typeof agentWorkflow>(threadTurnWorkflowId(id, 1));
    const approval = await waitForInteraction(turn, 'tool.approval');
    await answer(turn, approval.id, { decision: 'approve', digest: approval.digest });
    expect(await turn.result()).toMatchObject({ status: 'completed' });
    const state = await stateOf(turn);
    expect(state.steps.find((s) => s.id === 'facts')?.result).toContain(`inputs/notes.txt says: "${NOTES}"`);
    expect((await threads.get(id)).turns[0]?.reply).toContain(NOTES);
  });
});
