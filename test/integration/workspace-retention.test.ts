/**
 * CAIRN_WORKSPACE_RETENTION_DAYS (docs/operations.md#retention): a sweep deletes the folder of an
 * agent that closed at least the retention ago — asked of the real dev server — and keeps
 * everything else: a running agent's folder, a finished agent's within the retention, folders no
 * workflow is known by (what agents of earlier releases wrote in the shared root), hashed folder
 * names, plain files and symbolic links in the root.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentWorkflow } from '../../workflows/agent/agent-workflow';
import { agentWorkspaceDir, workspaceFolderName } from '../../config/agent-workspace';
import { DAY_MS, sweepWorkspaces, temporalCloseTime } from '../../worker/workspace-retention';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent } from '../harness/agents';
import { finish } from '../harness/plans';
import { uniqueId, withWorker } from '../harness/test-env';

const bed = agentTestbed();

test('a sweep removes only folders of agents closed longer ago than the retention', async () => {
  const root = mkdtempSync(join(tmpdir(), 'retention-'));
  bed.llm.respondWith(byRoute({ 'step:task': [finish('done')] }));
  const finished = await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'finish', mode: { plan: false } });
    await handle.result();
    return handle.workflowId;
  });
  // No worker polls this queue: the agent stays running.
  const running = await bed.client.workflow.start(agentWorkflow, {
    taskQueue: uniqueId('no-worker'),
    workflowId: uniqueId('agent-test'),
    args: [{ task: 'wait' }],
  });
  try {
    for (const id of [finished, running.workflowId]) {
      mkdirSync(agentWorkspaceDir(root, id), { recursive: true });
      writeFileSync(join(agentWorkspaceDir(root, id), 'out.txt'), id);
    }
    mkdirSync(join(root, 'notes')); // an earlier release's agent wrote it in the shared root
    mkdirSync(join(root, workspaceFolderName('an id/that is no name'))); // hashed: no workflow by that name
    writeFileSync(join(root, 'loose.txt'), 'x');
    symlinkSync(agentWorkspaceDir(root, finished), join(root, 'link-to-finished'));
    const everything = readdirSync(root).sort();

    const sweep = (now: number) =>
      sweepWorkspaces({ root, retentionMs: DAY_MS, closeTime: temporalCloseTime(bed.client), now: () => now });
    // Within the retention: nothing goes.
    expect(await sweep(Date.now())).toEqual([]);
    expect(readdirSync(root).sort()).toEqual(everything);
    // Two days on: only the finished agent's folder goes.
    expect(await sweep(Date.now() + 2 * DAY_MS)).toEqual([workspaceFolderName(finished)]);
    expect(readdirSync(root).sort()).toEqual(everything.filter((name) => name !== workspaceFolderName(finished)));
    expect(existsSync(join(agentWorkspaceDir(root, running.workflowId), 'out.txt'))).toBe(true);
  } finally {
    await running.terminate('test over');
  }
});

test('a sweep of a root not made yet removes nothing', async () => {
  const root = join(mkdtempSync(join(tmpdir(), 'retention-')), 'not-yet');
  const closeTime = () => Promise.reject(new Error('not asked: there are no folders'));
  expect(await sweepWorkspaces({ root, retentionMs: DAY_MS, closeTime })).toEqual([]);
});
