/**
 * Who steers a running task turn (docs/threads.md#steering, docs/security.md#thread-ownership):
 * its sender and an admin do; anyone else's steer is queued as their own turn (the answer says
 * `STEER_NOT_OWNER`), so their words never run under the turn sender's principal. Over HTTP with
 * tokens-file sign-ins, a real Temporal server and the scripted model, asserted from the model's
 * request log and the turns' inputs.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, waitForInteraction, type AgentHandle } from '../harness/agents';
import { postJson } from '../harness/http-app';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { tokenApp } from '../harness/token-app';
import { waitUntil } from '../../testkit/wait-until';
import { ThreadClient } from '../../client/threads/thread-client';
import { decompressPayload } from '../../temporal/payloads/compression-codec';
import { stateQuery } from '../../workflows/contract/messages';
import { threadTurnWorkflowId, type ThreadView } from '../../workflows/contract/thread-contract';

const bed = agentTestbed();

/** The text of every message of a recorded request, joined. */
const wholeText = (messages: { content?: unknown }[]): string =>
  messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');

/** The principal agent `handle` was started under, from its first event. */
async function principalOf(handle: AgentHandle): Promise<unknown> {
  const history = await handle.fetchHistory();
  const input = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  return defaultPayloadConverter.fromPayload<{ principal?: unknown }>(decompressPayload(input ?? {})).principal;
}

test("only the turn's sender and an admin steer it: another operator's steer is queued as their own turn, run under their principal", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('s2')]))],
      'step:s1': [finish('the docs are tidy')],
      'step:s2': [finish('noted the deploy script')],
      summary: [reply.text('tidied'), reply.text('noted')],
    }),
  );
  await withWorker(bed.config, async () => {
    const app = tokenApp(
      bed.client,
      bed.config.taskQueue,
      [
        { principal: 'ann', roles: ['operator'], token: 'ann-token' },
        { principal: 'op2', roles: ['operator'], token: 'op2-token' },
        { principal: 'root', roles: ['admin'], token: 'root-token' },
        { principal: 'vic', roles: ['viewer'], token: 'vic-token' },
      ],
      { threads: new ThreadClient(bed.client, bed.config.taskQueue) },
    );
    const as = (who: string) => ({ authorization: `Bearer ${who}-token` });
    const opened = await postJson(
      app,
      '/api/threads',
      { text: 'tidy the docs', kind: 'task', mode: { confirmPlan: true } },
      as('ann'),
    );
    const { id } = (await opened.json()) as { id: string };
    const turn1: AgentHandle = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 1));
    const check = await waitForInteraction(turn1, 'plan.check');
    const steer = async (who: string, text: string) => {
      const res = await postJson(app, `/api/threads/${id}/messages`, { text, policy: 'steer', kind: 'task' }, as(who));
      expect(res.status).toBe(202);
      return res.json();
    };

    const foreign = 'also write scripts/deploy.sh';
    expect(await steer('op2', foreign)).toEqual({
      messageId: 'msg-2',
      disposition: 'queued',
      reason: 'STEER_NOT_OWNER',
    });
    expect(await steer('ann', 'only the markdown files')).toEqual({ messageId: 'msg-3', disposition: 'steered' });
    expect(await steer('root', 'skip the changelog')).toEqual({ messageId: 'msg-4', disposition: 'steered' });
    await waitUntil('both steers held', async () =>
      (await turn1.query(stateQuery)).heldSteers?.length === 2 ? true : undefined,
    );
    await answer(turn1, check.id, { decision: 'confirm' });
    await turn1.result();

    // The running turn's step heard its sender and the admin, never op2.
    const s1 = wholeText(
      bed.llm.requestsFor('step').find((r) => r.headers['x-cairn-step'] === 's1')?.body.messages ?? [],
    );
    expect(s1).toContain('only the markdown files');
    expect(s1).toContain('skip the changelog');
    expect(s1).not.toContain(foreign);
    // op2's message ran as a turn of its own, under op2.
    const read = async () =>
      (await (await app.request(`/api/threads/${id}`, { headers: as('ann') })).json()) as ThreadView;
    await waitUntil('the queued turn run', async () =>
      (await read()).turns[1]?.status === 'completed' ? true : undefined,
    );
    const turn2: AgentHandle = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 2));
    expect(await principalOf(turn2)).toEqual({ id: 'op2', roles: ['operator'], authenticatedBy: 'token' });
    expect(await principalOf(turn1)).toEqual({ id: 'ann', roles: ['operator'], authenticatedBy: 'token' });
    const plan2 = bed.llm.requestsFor('plan')[1]?.body.messages ?? [];
    expect(wholeText(plan2)).toContain(foreign);
    // Whoever may read the thread reads one message whole: a viewer too.
    const message = await app.request(`/api/threads/${id}/messages/msg-2`, { headers: as('vic') });
    expect(message.status).toBe(200);
    expect(await message.json()).toMatchObject({ messageId: 'msg-2', by: 'op2', text: foreign });
    const view = await read();
    expect(view.turns.map((t) => [t.messageId, t.by, t.disposition, t.status, t.agentId])).toEqual([
      ['msg-1', 'ann', 'started', 'completed', threadTurnWorkflowId(id, 1)],
      ['msg-2', 'op2', 'queued', 'completed', threadTurnWorkflowId(id, 2)],
      ['msg-3', 'ann', 'steered', 'delivered', threadTurnWorkflowId(id, 1)],
      ['msg-4', 'root', 'steered', 'delivered', threadTurnWorkflowId(id, 1)],
    ]);
  });
});
