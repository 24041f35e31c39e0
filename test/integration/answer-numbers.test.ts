/**
 * JSON has no Infinity: `1e400` in an HTTP answer parses to Infinity and would reach the
 * workflow as `null` — "left empty", so an optional number field silently took its default.
 * Non-finite numbers are refused at the client with INVALID_ANSWER naming the field, and nothing
 * changes; the same answer with a real number then goes through.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { testApp } from '../harness/http-app';
import { startAgent, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNothingChanged } from '../harness/nothing-changed';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

const appFor = (): OpenAPIHono => testApp(bed.client, bed.config.taskQueue);

/** Posts a raw JSON text, so numbers JSON.stringify could never write reach the server. */
const postRaw = (app: OpenAPIHono, path: string, raw: string) =>
  app.request(path, { method: 'POST', body: raw, headers: { 'content-type': 'application/json' } });

async function stateOf(app: OpenAPIHono, id: string): Promise<AgentState> {
  return (await (await app.request(`/api/agents/${id}`)).json()) as AgentState;
}

test('1e400 in a number answer is refused with INVALID_ANSWER on its field, not taken as the default', async () => {
  const fields = [{ key: 'pages', label: 'Pages', type: 'number', required: false, default: 5 }];
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'form', prompt: 'How long?', fields }, 'ask-f'),
        planReply(plan([step('s1')])),
      ],
      'step:s1': [finish('ok')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const app = appFor();
    const handle = await startAgent(bed.client, bed.config, { task: 'Count pages', mode: { ask: true } });
    const form = await waitForInteraction(handle, 'ask.form');
    const path = `/api/agents/${handle.workflowId}/answers`;
    const refused = await expectNothingChanged(
      () => stateOf(app, handle.workflowId),
      bed.llm,
      form.id,
      async () => {
        const res = await postRaw(app, path, `{"interactionId":"${form.id}","answer":{"values":{"pages":1e400}}}`);
        return { status: res.status, body: await res.json() };
      },
    );
    expect(refused).toEqual({
      status: 400,
      body: {
        error: {
          code: 'INVALID_ANSWER',
          message: 'answer.values.pages: must be a finite number',
          field: 'answer.values.pages',
        },
      },
    });
    const accepted = await postRaw(app, path, `{"interactionId":"${form.id}","answer":{"values":{"pages":12}}}`);
    expect(accepted.status).toBe(200);
    await handle.result();
    const toolMessage = bed.llm
      .requestsFor('plan')[1]
      ?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'ask-f');
    expect(toolMessage?.content).toBe(JSON.stringify({ values: { pages: 12 } }));
  });
});
