/**
 * Pause and resume from the HTTP API (`POST /api/agents/:id/pause|resume` → 202) and the CLI
 * (`cairn pause|resume`): the agent's phase follows, who paused it is on the state, and an
 * agent that has ended is refused with `AGENT_FINISHED` (409, exit 1) and left as it was — by
 * HTTP also while its cancelled run is still closing, or closes as the request arrives.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, waitForInteraction } from '../harness/agents';
import { plan, planReply, step } from '../harness/plans';
import { runCairn } from '../harness/cairn-cli';
import { postJson, stateOverHttp, testApp } from '../harness/http-app';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

const appFor = (): OpenAPIHono => testApp(bed.client, bed.config.taskQueue);
const post = postJson;
const stateOf = stateOverHttp;

const phaseIs = (app: OpenAPIHono, id: string, phase: AgentState['phase']) =>
  waitUntil(`agent ${id} is ${phase}`, async () => {
    const state = await stateOf(app, id);
    return state.phase === phase ? state : undefined;
  });

test('pause and resume by HTTP and CLI; an ended agent is refused with AGENT_FINISHED and nothing changes', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a')]))],
      'step:a': [reply.toolCall('write_file', { path: 'x.txt', content: 'X' }, 'w1')],
    }),
  );
  const env = { CAIRN_TASK_QUEUE: bed.config.taskQueue };
  await withWorker(bed.config, async () => {
    const app = appFor();
    const handle = await startAgent(bed.client, bed.config, { task: 'hold me' });
    const id = handle.workflowId;
    await waitForInteraction(handle, 'tool.approval', 'a');

    const paused = await post(app, `/api/agents/${id}/pause`, { by: 'ops', reason: 'checking costs' });
    expect(paused.status).toBe(202);
    expect(await paused.json()).toEqual({ id });
    expect((await phaseIs(app, id, 'paused')).hold).toMatchObject({ reasons: ['pause'], by: 'ops' });
    const resumed = await post(app, `/api/agents/${id}/resume`);
    expect(resumed.status).toBe(202);
    expect((await phaseIs(app, id, 'executing')).hold).toBeUndefined();

    const cliPause = await runCairn(['pause', id, '--by', 'cli-user', '--reason', 'night'], env);
    expect(cliPause.code).toBe(0);
    expect((await phaseIs(app, id, 'paused')).hold).toMatchObject({ by: 'cli-user', reason: 'night' });
    expect((await runCairn(['resume', id], env)).code).toBe(0);
    await phaseIs(app, id, 'executing');

    const unknown = await post(app, `/api/agents/agent-nobody-00000000/pause`);
    expect(unknown.status).toBe(404);

    await handle.cancel();
    const ended = await phaseIs(app, id, 'cancelled');
    const refused = await post(app, `/api/agents/${id}/pause`, { by: 'ops' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('AGENT_FINISHED');
    // The CLI sends the fire-and-forget signal, which a run still closing takes: wait for the close.
    await expect(handle.result()).rejects.toThrow();
    const cliRefused = await runCairn(['resume', id], env);
    expect(cliRefused.code).toBe(1);
    expect(cliRefused.stderr).toContain('has ended');
    expect(await stateOf(app, id)).toEqual(ended);
  });
});
