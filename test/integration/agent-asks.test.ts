/**
 * Acceptance 1 — the planner's clarifying questions: query, single and multi select, and a
 * typed form; answers by signal and by update; invalid answers rejected by the update with the
 * rule named and the state unchanged; `ask_user` withdrawn once `maxAsks` is used up.
 */
import { answerSignal } from '../../workflows/contract/messages';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, rejection, startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

const toolNames = (index: number) =>
  (bed.llm.requestsFor('plan')[index]?.body.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : t.type));

/** The tool message answering call `id` in a planner request. */
function toolReply(index: number, id: string): unknown {
  const requests = bed.llm.requestsFor('plan');
  const message = requests[index]?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === id);
  return message && typeof message.content === 'string' ? JSON.parse(message.content) : undefined;
}

test('query, single select and multi select by signal and update; the 4th planner request has no ask_user', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'query', prompt: 'Who is the audience?' }, 'ask-q'),
        reply.toolCall('ask_user', { kind: 'select', prompt: 'Tone?', options: ['formal', 'casual'] }, 'ask-s'),
        reply.toolCall(
          'ask_user',
          { kind: 'select', prompt: 'Sections?', options: ['intro', 'body', 'faq'], multiple: true },
          'ask-m',
        ),
        planReply(plan([step('s1')])),
      ],
      'step:s1': [finish('written')],
      summary: [reply.text('final answer')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'Write a brief', mode: { ask: true } });

    const query = await waitForInteraction(handle, 'ask.query');
    expect(query).toMatchObject({ prompt: 'Who is the audience?', status: 'open' });
    await handle.signal(answerSignal, { interactionId: query.id, answer: { text: 'engineers' }, by: 'ann' });

    const single = await waitForInteraction(handle, 'ask.select');
    expect(single).toMatchObject({ options: ['formal', 'casual'], multiple: false });
    const before = await stateOf(handle);
    expect(await rejection(handle, single.id, { values: ['sarcastic'] })).toMatch(/not one of the options/);
    expect(await rejection(handle, single.id, { values: ['formal', 'casual'] })).not.toBe('');
    expect(await rejection(handle, single.id, { text: 'formal' })).not.toBe('');
    expect(await stateOf(handle)).toEqual(before);
    await expect(answer(handle, single.id, { values: ['formal'] })).resolves.toMatchObject({
      interactionId: single.id,
    });

    const multi = await waitForInteraction(handle, 'ask.select');
    expect(multi.multiple).toBe(true);
    await answer(handle, multi.id, { values: ['intro', 'faq'] });

    const result = await handle.result();
    expect(result).toMatchObject({ status: 'completed', answer: 'final answer' });
    expect(toolReply(1, 'ask-q')).toEqual({ text: 'engineers' });
    expect(toolReply(2, 'ask-s')).toEqual({ values: ['formal'] });
    expect(toolReply(3, 'ask-m')).toEqual({ values: ['intro', 'faq'] });
    expect([0, 1, 2].map(toolNames)).toEqual([['ask_user'], ['ask_user'], ['ask_user']]);
    expect(toolNames(3)).toEqual([]);
    const state = await stateOf(handle);
    expect(state.interactions.map((i) => [i.kind, i.status, i.by])).toEqual([
      ['ask.query', 'answered', 'ann'],
      ['ask.select', 'answered', 'tester'],
      ['ask.select', 'answered', 'tester'],
    ]);
    await recordHistory('agent-asks', handle);
  });
});

test('a typed form: each broken field rule is rejected by name, then a valid answer is accepted', async () => {
  const fields = [
    { key: 'title', label: 'Title', type: 'input', required: true, maxLength: 10 },
    { key: 'pages', label: 'Pages', type: 'number', required: true, min: 1, max: 20 },
    { key: 'draft', label: 'Draft?', type: 'boolean', required: false, default: true },
  ];
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'form', prompt: 'Details', fields }, 'ask-f'),
        planReply(plan([step('s1')])),
      ],
      'step:s1': [finish('ok')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'Write a report', mode: { ask: true } });
    const form = await waitForInteraction(handle, 'ask.form');
    const before = await stateOf(handle);
    expect(await rejection(handle, form.id, { values: { pages: 3 } })).toMatch(/title: required/);
    expect(await rejection(handle, form.id, { values: { title: 'Hi', pages: 99 } })).toMatch(
      /pages: must be at most 20/,
    );
    expect(await rejection(handle, form.id, { values: { title: 'A very long title', pages: 2 } })).toMatch(
      /title: .*10/,
    );
    expect(await rejection(handle, 'i99', { values: { title: 'Hi', pages: 2 } })).toMatch(/no interaction "i99"/);
    expect(await stateOf(handle)).toEqual(before);
    await answer(handle, form.id, { values: { title: 'Hi', pages: 2 } });
    expect(await rejection(handle, form.id, { values: { title: 'Again', pages: 2 } })).toMatch(/already answered/);
    await handle.result();
    expect(toolReply(1, 'ask-f')).toEqual({ values: { title: 'Hi', pages: 2, draft: true } });
  });
});
