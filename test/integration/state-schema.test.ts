/**
 * The agent state's zod schema against a real agent: one run on the dev server that asks a
 * form, a select and a query, has its plan checked, a bad answer signalled, a write approved
 * and a failed step retried, then finishes. Its final state — from the `state` query and from
 * `GET /api/agents/:id` — must parse with the schema and come out unchanged: a field the
 * workflow adds, drops or reshapes without the schema fails here (zod objects strip unknown
 * keys, so "unchanged" is what catches an addition).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { AgentStateBody } from '../../client/http/schemas';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { answerSignal } from '../../workflows/contract/messages';
import { agentStateSchema } from '../../workflows/model/state/agent-state-schema';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { testApp } from '../harness/http-app';

const bed = agentTestbed();

/** Parses `value` with `schema`, failing with the issues when it does not parse. */
function parsed(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`the state does not match its schema:\n${JSON.stringify(result.error.issues)}`);
  return result.data;
}

test('a finished agent state, from the query and from the HTTP API, is exactly what its schema describes', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'state-schema-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const fields = [
    { key: 'audience', label: 'Audience', type: 'input', required: true, maxLength: 30 },
    { key: 'pages', label: 'Pages', type: 'number', required: false, min: 1, max: 20, default: 2 },
    { key: 'tone', label: 'Tone', type: 'select', required: true, options: ['formal', 'casual'] },
    { key: 'draft', label: 'Draft?', type: 'boolean', required: false },
  ];
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'form', prompt: 'A few details', fields }, 'ask-f'),
        reply.toolCall(
          'ask_user',
          { kind: 'select', prompt: 'Sections?', options: ['a', 'b'], multiple: true },
          'ask-s',
        ),
        reply.toolCall('ask_user', { kind: 'query', prompt: 'Anything else?' }, 'ask-q'),
        planReply(plan([step('s1'), step('s2', ['s1'])])),
      ],
      'step:s1': [reply.toolCall('write_file', { path: 'notes.md', content: 'hello' }, 'w1'), finish('wrote notes')],
      'step:s2': [reply.error(400), finish('reviewed')],
      summary: [reply.text('done')],
    }),
  );
  try {
    await withWorker(config, async () => {
      const handle = await startAgent(bed.client, config, {
        task: 'Write notes',
        mode: { ask: true, confirmPlan: true },
        onStepFailure: 'ask',
      });
      const form = await waitForInteraction(handle, 'ask.form');
      await answer(handle, form.id, { values: { audience: ' engineers ', tone: 'casual', draft: true } });
      const select = await waitForInteraction(handle, 'ask.select');
      await answer(handle, select.id, { values: ['a', 'b'] });
      const query = await waitForInteraction(handle, 'ask.query');
      await answer(handle, query.id, { text: 'no' });
      const check = await waitForInteraction(handle, 'plan.check');
      // By signal, a bad answer is recorded on the timeline (and changes nothing else).
      await handle.signal(answerSignal, { interactionId: check.id, answer: { decision: 'maybe' } });
      await waitUntil('the rejected answer on the timeline', async () =>
        (await stateOf(handle)).events.some((e) => e.type === 'answer.rejected'),
      );
      await answer(handle, check.id, { decision: 'confirm' });
      const approval = await waitForInteraction(handle, 'tool.approval', 's1');
      await answer(handle, approval.id, { decision: 'approve', digest: approval.digest });
      const failure = await waitForInteraction(handle, 'step.failure', 's2');
      await answer(handle, failure.id, { decision: 'retry' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });

      const state = await stateOf(handle);
      // The run reached every part of the state the schema describes.
      expect(state.interactions.map((i) => [i.kind, i.status])).toEqual([
        ['ask.form', 'answered'],
        ['ask.select', 'answered'],
        ['ask.query', 'answered'],
        ['plan.check', 'answered'],
        ['tool.approval', 'answered'],
        ['step.failure', 'answered'],
      ]);
      expect(state.steps.map((s) => [s.id, s.status, s.attempts])).toEqual([
        ['s1', 'completed', 1],
        ['s2', 'completed', 2],
      ]);
      expect(state.steps[0]?.toolCalls.map((c) => c.name)).toEqual(['write_file']);
      expect(new Set(state.events.map((e) => e.type))).toEqual(
        new Set([
          'interaction.opened',
          'interaction.answered',
          'answer.rejected',
          'plan.created',
          'step.started',
          'tool.called',
          'step.finished',
          'summary',
          'agent.finished',
        ]),
      );
      expect(state).toMatchObject({ phase: 'completed', plan: { steps: [{ id: 's1' }, { id: 's2' }] } });

      expect(parsed(agentStateSchema, state)).toEqual(state);
      const app = testApp(bed.client, config.taskQueue);
      const res = await app.request(`/api/agents/${encodeURIComponent(handle.workflowId)}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as AgentState;
      // The API adds the final answer under `answer` too (the CLI's name), beside the state's `result`.
      expect(body).toEqual({ ...state, answer: state.result });
      expect(parsed(AgentStateBody, body)).toEqual(body);
    });
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
