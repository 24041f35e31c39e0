/**
 * A thread bound to a definition (workflows/thread/thread-task.ts): each task turn's agent input
 * starts with the definition's fields and snapshot; a message's mode replaces the definition's,
 * its limits only lower the definition's, its files come after the definition's. An unbound
 * thread's turns are as before (no definition field at all).
 */
import type { ThreadAgent } from '../../workflows/model/agent/definition-snapshot';
import { boundLimits, turnInput } from '../../workflows/thread/thread-task';

const agent: ThreadAgent = {
  definition: { name: 'support', version: 'b'.repeat(64), content: { name: 'support' } },
  systemPrompt: 'Be kind.',
  tools: ['read_file'],
  model: { name: 'small' },
  mode: { ask: true },
  limits: { maxReplans: 1, maxParallelSteps: 2 },
  files: ['handbook.md'],
};

test('a bound turn starts with the definition: prompt, tools, model, mode, files and snapshot', () => {
  const input = turnInput('thread-1', 2, { text: 'Where is my parcel?', files: ['order.txt'] }, [], undefined, agent);
  expect(input).toMatchObject({
    systemPrompt: 'Be kind.',
    tools: ['read_file'],
    model: { name: 'small' },
    mode: { ask: true },
    files: ['handbook.md', 'order.txt'],
    definition: agent.definition,
    thread: { id: 'thread-1', turn: 2 },
  });
  expect(turnInput('thread-1', 2, { text: 'x', mode: { plan: false } }, [], undefined, agent).mode).toEqual({
    plan: false,
  });
});

test('an unbound turn carries no definition fields', () => {
  const input = turnInput('thread-1', 1, { text: 'Hello' }, []);
  expect(Object.keys(input).sort()).toEqual(['task', 'thread']);
});

test("a message's limits only lower the definition's; other keys pass", () => {
  expect(boundLimits(agent, { maxReplans: 5, maxParallelSteps: 1, tokenBudget: 100 })).toEqual({
    maxReplans: 1,
    maxParallelSteps: 1,
    tokenBudget: 100,
  });
  expect(boundLimits(agent, undefined)).toEqual({ maxReplans: 1, maxParallelSteps: 2 });
  expect(boundLimits(undefined, { maxReplans: 5 })).toEqual({ maxReplans: 5 });
});
