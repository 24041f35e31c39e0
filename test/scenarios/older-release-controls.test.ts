/**
 * Pause, resume and cancel with an actor, sent to an agent on a release without the `pause`,
 * `resume` and `recordCancel` updates (docs/contracts.md#messages): the update is rejected
 * uncoded, so the client falls back to the signal — the agent pauses and resumes, in the name of
 * the actor's id (a signal carries no actor) — and the cancellation goes through unnamed. The
 * older release is today's workflow code with those three update handlers taken away
 * (test/scenarios/variants/before-control-updates.ts), bundled for this file's worker.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { AgentClient } from '../../client/agents/agent-client';
import { unknownToRelease } from '../../client/unanswered-query';
import type { AgentEvent } from '../../workflows/model/agent/agent-state';
import { pauseUpdate } from '../../workflows/contract/messages';
import { PRELOAD_MODULES, WORKFLOW_INTERCEPTOR_MODULES } from '../../worker/workflows-path';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForInteraction, waitForState } from '../harness/agents';
import { plan, planReply, step } from '../harness/plans';
import { quietLogger } from '../harness/quiet-logger';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();
const OLGA = { id: 'olga', name: 'Olga Ops', roles: ['operator' as const], method: 'api' as const };
let olderRelease: string;

beforeAll(async () => {
  const bundle = await bundleWorkflowCode({
    workflowsPath: join(__dirname, 'variants', 'before-control-updates.ts'),
    preloadModules: PRELOAD_MODULES,
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: quietLogger,
  });
  olderRelease = join(mkdtempSync(join(tmpdir(), 'cairn-older-release-')), 'workflow-bundle.js');
  writeFileSync(olderRelease, bundle.code);
}, 60_000);

const controls = (events: AgentEvent[]) =>
  events.filter((e) => ['agent.paused', 'agent.resumed', 'agent.finished'].includes(e.type));

test('pause and resume with an actor fall back to the signal; a cancel with an actor goes through unnamed', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))] }));
  const agents = new AgentClient(bed.client, bed.config.taskQueue);
  const options = { workflowBundlePath: olderRelease };
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'Wait', mode: { confirmPlan: true } });
      await waitForInteraction(handle, 'plan.check');
      // The older release knows no pause update: the SDK refuses it without a Cairn code.
      const refused = await handle.executeUpdate(pauseUpdate, { args: [{ actor: OLGA }] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect(unknownToRelease(refused)).toBe(true);

      await agents.pause(handle.workflowId, { actor: OLGA, reason: 'lunch' });
      await waitForState(handle, 'paused by the signal', (s) => s.phase === 'paused');
      await agents.resume(handle.workflowId, { actor: OLGA });
      await waitForState(handle, 'resumed by the signal', (s) => s.phase === 'awaiting_input');
      await agents.cancel(handle.workflowId, { actor: OLGA });
      await expect(handle.result()).rejects.toThrow();

      const state = await stateOf(handle);
      expect(state.cancelRequest).toBeUndefined();
      // By the signal: the actor's id as `by`, no actor kept (the audit cannot tell who sent a signal).
      expect(controls(state.events).map(({ type, message }) => ({ type, message }))).toEqual([
        { type: 'agent.paused', message: 'paused (pause) by olga: lunch' },
        { type: 'agent.resumed', message: 'pause hold lifted by olga' },
        { type: 'agent.finished', message: 'cancelled' },
      ]);
      expect(controls(state.events).some((e) => 'actor' in e)).toBe(false);
    },
    undefined,
    options,
  );
});
