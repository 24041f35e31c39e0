/**
 * A question is answered by whoever asked for the work: a turn's agent's `ask` question, with no
 * role named for it, may be answered by the person who sent the message — here an operator
 * without `approver`, through the OpenAI-compatible front door — while another operator is still
 * refused (403 ROLE_REQUIRED), against the real dev server and worker.
 */
import OpenAI from 'openai';
import { ThreadClient } from '../../client/threads/thread-client';
import { threadTurnWorkflowId } from '../../workflows/contract/thread-contract';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { waitUntil } from '../../testkit/wait-until';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { serveOnLoopback } from '../harness/sse-client';
import { withWorker } from '../harness/test-env';
import { tokenApp } from '../harness/token-app';

const bed = agentTestbed();

const tokens = { ops: 'token-of-ops-the-operator', other: 'token-of-another-operator' };

test('an operator answers the question of the turn they asked for through the front door; another operator is refused', async () => {
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'task', reason: 'work to do' })],
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('ask_user', { kind: 'query', prompt: 'Who reads the brief?' }, 'q1'),
        finish('a brief for engineers'),
      ],
      summary: [reply.text('The brief is for engineers.')],
    }),
  );
  await withWorker(bed.config, async () => {
    const app = tokenApp(
      bed.client,
      bed.config.taskQueue,
      [
        { principal: 'ops', roles: ['operator'], token: tokens.ops },
        { principal: 'other', roles: ['operator'], token: tokens.other },
      ],
      { threads: new ThreadClient(bed.client, bed.config.taskQueue) },
    );
    const server = await serveOnLoopback(app);
    try {
      const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: tokens.ops, maxRetries: 0 });
      const asked = await openai.chat.completions
        .create({ model: 'cairn', messages: [{ role: 'user', content: 'write a brief' }] })
        .withResponse();
      const thread = asked.response.headers.get('x-cairn-thread') ?? '';
      const agentId = threadTurnWorkflowId(thread, 1);
      expect(asked.data.choices[0]?.message.content).toContain('Who reads the brief?');
      const state = () => bed.client.workflow.getHandle(agentId).query<AgentState>('state');
      const question = await waitUntil('the question is open', async () =>
        (await state()).interactions.find((i) => i.kind === 'ask.query' && i.status === 'open'),
      );
      expect(question.askedOf).toEqual({ id: 'ops', authenticatedBy: 'token' });

      // Another operator: the default role still applies to them.
      const refused = await fetch(`${server.url}/api/agents/${encodeURIComponent(agentId)}/answers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.other}` },
        body: JSON.stringify({ interactionId: question.id, answer: { text: 'managers' } }),
      });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('ROLE_REQUIRED');

      // The sender's next message answers it.
      const answered = await openai.chat.completions.create(
        { model: 'cairn', messages: [{ role: 'user', content: 'engineers' }] },
        { headers: { 'X-Cairn-Thread': thread } },
      );
      expect(answered).toMatchObject({ cairn: { disposition: 'answer' } });
      const done = await waitUntil('the turn completes', async () => {
        const s = await state();
        return s.phase === 'completed' ? s : undefined;
      });
      expect(done.interactions.find((i) => i.id === question.id)).toMatchObject({
        status: 'answered',
        answer: { text: 'engineers' },
        actor: { id: 'ops', roles: ['operator'], authenticatedBy: 'token' },
      });
      expect(bed.llm.heardBack('q1')).toContain('engineers');
    } finally {
      await server.close();
    }
  });
});
