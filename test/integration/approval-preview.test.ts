/**
 * A write's approval shows how the file would change: the step asks the `previewToolCall`
 * activity (behind the `cairn-approval-preview` patch) before it opens the approval, so the
 * interaction carries the unified diff against the workspace's current file — or says the file
 * is new. What was approved is what is written. With CAIRN_RECORD_HISTORIES=1 the agent's and the
 * step's histories are kept for the replay gate.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, waitForInteraction, agentFolder } from '../harness/agents';
import { recordHistory } from '../harness/histories';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker, uniqueId } from '../harness/test-env';

const bed = agentTestbed();

test("a write's approval carries the diff against the current file; a new file's says it is new", async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'approval-preview-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const agentId = uniqueId('agent-test');
  const folder = agentFolder(config, agentId);
  writeFileSync(join(folder, 'notes.md'), '# Notes\n\nold line\n\nend\n');
  const changed = '# Notes\n\nnew line\n\nend\n';
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('write_file', { path: 'notes.md', content: changed }, 'w1'),
        reply.toolCall('write_file', { path: 'fresh.md', content: 'hello\n' }, 'w2'),
        finish('wrote both'),
      ],
      summary: [reply.text('done')],
    }),
  );
  try {
    await withWorker(config, async () => {
      const handle = await startAgent(bed.client, config, { task: 'edit the notes' }, agentId);
      const edit = await waitForInteraction(handle, 'tool.approval', 's1');
      expect(edit.preview).toEqual({
        path: 'notes.md',
        change: 'diff',
        text: '--- a/notes.md\n+++ b/notes.md\n@@ -1,5 +1,5 @@\n # Notes\n \n-old line\n+new line\n \n end',
      });
      // Shown before the write: the file still holds the old text.
      expect(readFileSync(join(folder, 'notes.md'), 'utf8')).toContain('old line');
      await answer(handle, edit.id, { decision: 'approve', digest: edit.digest }, 'alice');
      const create = await waitForInteraction(handle, 'tool.approval', 's1');
      expect(create.preview).toEqual({ path: 'fresh.md', change: 'new' });
      await answer(handle, create.id, { decision: 'approve', digest: create.digest }, 'alice');
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      expect(readFileSync(join(folder, 'notes.md'), 'utf8')).toBe(changed);
      const stepHandle = bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`);
      const activities = ((await stepHandle.fetchHistory()).events ?? []).flatMap(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
      );
      expect(activities.filter((a) => a === 'previewToolCall')).toHaveLength(2);
      await recordHistory('agent-approval-preview', handle);
      await recordHistory('step-approval-preview', stepHandle);
    });
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
