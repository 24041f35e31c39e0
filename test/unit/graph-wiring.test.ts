/**
 * The edges of agent graphs that are plain functions: the agent input's graph checks (planning
 * modes refused, a name needing resolution, every rule coded, `timeoutMs` as the deadline), the
 * `finish_step` output check against a node's schema, the router's reply check, and the Temporal
 * UI's progress for a graph agent.
 */
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { routerGraph } from '../../examples/graphs/router';
import { parseAgentInput } from '../../workflows/model/agent/agent-input';
import { progressMarkdown } from '../../workflows/model/agent/progress-markdown';
import { createAgentState } from '../../workflows/model/agent/agent-state';
import { exitsOf } from '../../workflows/model/graph/graph-exits';
import { graphSchema } from '../../workflows/model/graph/graph-schema';
import { checkRouteReply } from '../../workflows/model/graph/route-reply';
import { finishStepTool, parseFinishStepArgs } from '../../workflows/model/tools/finish-step';

const refusal = (input: unknown) => {
  const parsed = parseAgentInput(input);
  if (parsed.ok) throw new Error('expected a refusal');
  return parsed;
};

describe('the agent input with a graph', () => {
  test.each(['plan', 'ask'])('mode.%s is refused with a graph, naming the field', (key) => {
    const parsed = refusal({ task: 't', graph: reviewLoopGraph, mode: { [key]: key === 'ask' } });
    expect(parsed.field).toBe(`mode.${key}`);
    expect(parsed.errors).toEqual([`mode.${key}: is not allowed with a graph`]);
  });

  test('confirmPlan is allowed: it shows the graph', () => {
    const parsed = parseAgentInput({ task: 't', graph: reviewLoopGraph, mode: { confirmPlan: true } });
    expect(parsed.ok && parsed.settings.mode.confirmPlan).toBe(true);
  });

  test('a graph name alone is refused: clients resolve it before the start', () => {
    expect(refusal({ task: 't', graphName: 'review-loop' }).field).toBe('graphName');
    const resolved = parseAgentInput({ task: 't', graphName: 'review-loop', graph: reviewLoopGraph });
    expect(resolved.ok).toBe(true);
  });

  test('every broken rule comes back with its code and place', () => {
    const broken = {
      ...reviewLoopGraph,
      nodes: [...reviewLoopGraph.nodes, { id: 'orphan', systemPrompt: 'never reached' }],
      edges: [...(reviewLoopGraph.edges ?? []), { from: 'draft', to: 'ghost' }],
    };
    const { errors, field } = refusal({ task: 't', graph: broken });
    expect(field).toBe('graph.edges[3].to');
    expect(errors.some((e) => e.endsWith('(unknown_node)'))).toBe(true);
    expect(errors.some((e) => e.startsWith('graph.nodes[3]') && e.endsWith('(unreachable_node)'))).toBe(true);
  });

  test("the graph's timeoutMs acts as the deadline; an explicit deadline wins", () => {
    const timed = parseAgentInput({ task: 't', graph: { ...reviewLoopGraph, timeoutMs: 60_000 } });
    expect(timed.ok && timed.settings.limits.deadlineMs).toBe(60_000);
    const both = parseAgentInput({
      task: 't',
      graph: { ...reviewLoopGraph, timeoutMs: 60_000 },
      limits: { deadlineMs: 5_000 },
    });
    expect(both.ok && both.settings.limits.deadlineMs).toBe(5_000);
  });
});

describe("finish_step with a node's output schema", () => {
  const schema = reviewLoopGraph.nodes.find((n) => n.id === 'review')?.output ?? {};
  const args = (value: unknown) => JSON.stringify(value);

  test('a matching output is handed back with the result', () => {
    const output = { approved: true, feedback: 'fine' };
    expect(parseFinishStepArgs(args({ result: 'ok', output }), schema)).toEqual({ ok: true, result: 'ok', output });
  });

  test('a missing or mismatching output is refused, naming the field', () => {
    expect(parseFinishStepArgs(args({ result: 'ok' }), schema)).toMatchObject({ ok: false });
    const wrong = parseFinishStepArgs(args({ result: 'ok', output: { approved: 'yes', feedback: 'x' } }), schema);
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.error).toMatch(/^output\.approved: /);
    const extra = parseFinishStepArgs(
      args({ result: 'ok', output: { approved: true, feedback: 'x', more: 1 } }),
      schema,
    );
    expect(extra.ok).toBe(false);
  });

  test('without a schema the output is ignored, and the tool offers none', () => {
    expect(parseFinishStepArgs(args({ result: 'ok', output: { any: 1 } }))).toEqual({ ok: true, result: 'ok' });
    expect(JSON.stringify(finishStepTool().parameters)).not.toContain('output');
    const offered = finishStepTool(schema).parameters as { required: string[]; properties: Record<string, unknown> };
    expect(offered.required).toEqual(['result', 'output']);
    expect(offered.properties['output']).toMatchObject({ properties: { approved: { type: 'boolean' } } });
  });
});

describe("the router's reply", () => {
  const graph = graphSchema.parse(routerGraph);
  const exits = exitsOf(graph, 'classify');
  const candidates = exits.kind === 'conditional' ? exits.edges : [];

  test('a candidate, or null, is taken', () => {
    expect(checkRouteReply('{"to":"spec","reason":"asks for a feature"}', candidates)).toEqual({
      ok: true,
      reply: { to: 'spec', reason: 'asks for a feature' },
    });
    expect(checkRouteReply('```json\n{"to":null,"reason":"neither"}\n```', candidates)).toMatchObject({ ok: true });
  });

  test('text, a missing field, or a node that is no candidate is refused with what is wrong', () => {
    expect(checkRouteReply('triage', candidates)).toMatchObject({ ok: false });
    expect(checkRouteReply('{"to":"triage"}', candidates)).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^reason: /)],
    });
    const fallback = checkRouteReply('{"to":"answer","reason":"plain"}', candidates);
    expect(fallback).toEqual({
      ok: false,
      errors: ['to: "answer" is not a candidate; choose one of "triage", "spec", or null'],
    });
  });
});

test("a graph agent's progress in the Temporal UI names node and visit", () => {
  const state = createAgentState('loop');
  state.phase = 'executing';
  state.graph = graphSchema.parse(reviewLoopGraph);
  state.path = [
    { node: 'review', visit: 1, stepId: 'review', edge: { to: 'revise', reason: 'not approved' } },
    { node: 'review', visit: 2, stepId: 'review-2' },
  ];
  state.pathDropped = 3;
  const zero = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  state.steps = [
    { id: 'review', title: 'Review', status: 'completed', usage: zero, toolCalls: [], rounds: 1, attempts: 1 },
    { id: 'review-2', title: 'Review', status: 'running', usage: zero, toolCalls: [], rounds: 0, attempts: 1 },
  ];
  const lines = progressMarkdown(state).split('\n');
  expect(lines[0]).toBe('**executing** · graph review-loop · 5 visits · 0 tokens');
  expect(lines.slice(1)).toEqual(['- ● `review` review · visit 1 → revise', '- ◔ `review-2` review · visit 2']);
});
