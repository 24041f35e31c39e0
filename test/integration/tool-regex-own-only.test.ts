/**
 * No regular expression but Cairn's own runs in workflow code when a call's arguments are
 * checked (workflows/step/validate-arguments.ts), even in a schema that reaches a step some other
 * way than the tool registry — here a step started by hand (as the Temporal UI or SDK can) whose
 * catalogue gives the built-in `list_files` a `pattern`. Before, the workflow ran it and refused
 * the call there; now it is dropped and the call runs its activity, where the tool's own input
 * decides. The change sits behind a replay gate (PATCHES.toolRegexOwnOnly): the run is replayed
 * here against this build, as the patch registry asks of a gate no kept history holds.
 */
import { Worker } from '@temporalio/worker';
import { cairnDataConverter } from '../../temporal/payloads/data-converter';
import { stepWorkflowId } from '../../workflows/base/ids';
import { PATCHES } from '../../workflows/base/patches';
import type { StepInput } from '../../workflows/step/step-types';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { runInfo } from '../harness/run-info';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

/** A catalogue entry for list_files whose path must match an expression no Cairn schema has. */
const forgedListFiles: StepInput['tools'][number] = {
  name: 'list_files',
  description: 'List files',
  effect: 'read',
  idempotent: true,
  needsApproval: false,
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', pattern: '^(a+)+$' } },
    additionalProperties: false,
  },
};

test("a forged catalogue's pattern is not run in the step: the call reaches its activity, and the run replays", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a')]))],
      'step:forged': [reply.toolCall('list_files', { path: '.' }), finish('listed')],
    }),
  );
  await withWorker(bed.config, async () => {
    // The step reports its rounds to its agent: one waiting at its plan check takes them.
    const agent = await startAgent(bed.client, bed.config, { task: 'hold', mode: { confirmPlan: true } });
    await waitForInteraction(agent, 'plan.check');
    const input: StepInput = {
      version: 1,
      agentId: agent.workflowId,
      task: 'list the files',
      step: { id: 'forged', title: 'Forged', description: 'List the files', depends_on: [] },
      dependencies: [],
      tools: [forgedListFiles],
      maxStepRounds: 3,
      canAsk: false,
    };
    const stepHandle = await bed.client.workflow.start('stepWorkflow', {
      taskQueue: bed.config.taskQueue,
      workflowId: stepWorkflowId(agent.workflowId, 'forged'),
      args: [input],
    });
    const outcome: unknown = await stepHandle.result();
    await agent.terminate('test done');
    expect(outcome).toMatchObject({ status: 'completed', result: 'listed' });

    const history = await stepHandle.fetchHistory();
    const events = history.events ?? [];
    const activities = events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
    expect(activities).toContain('runTool'); // the old code refused the call in the workflow: no runTool
    const patches = events.flatMap((e) => {
      const marker = e.markerRecordedEventAttributes;
      const data =
        marker?.markerName === 'core_patch' ? marker.details?.['patch-data']?.payloads?.[0]?.data : undefined;
      return data ? [(JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id] : [];
    });
    expect(patches).toContain(PATCHES.toolRegexOwnOnly);
    const second = bed.llm.requests.filter((r) => JSON.stringify(r.body).includes('List the files'))[1];
    expect(JSON.stringify(second?.body)).not.toContain('invalid arguments for list_files');

    await Worker.runReplayHistory(
      {
        workflowBundle: { codePath: runInfo().workflowBundlePath },
        replayName: stepHandle.workflowId,
        dataConverter: cairnDataConverter({ compression: true }),
      },
      history,
      stepHandle.workflowId,
    );
  });
});
