/**
 * The offline demo model's replies, read from the very words Cairn sends: the thread router
 * tells questions from instructions and answers JSON its schema accepts; the graph router names
 * a candidate its check accepts (or null); a graph node's visit hands back an output its schema
 * accepts, no on the first visit and yes after; a step given files reads them before anything
 * else, says why before each tool call, and quotes what it read; streamed text comes a few
 * words at a time and joins back whole.
 */
import type { ChatCompletionRequest } from '../../llm-servers/chat-completions-wire';
import { wordPieces } from '../../llm-servers/chat-completions-stream';
import { demoReply } from '../../llm-servers/demo-model/demo-replies';
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { routerGraph } from '../../examples/graphs/router';
import { checkMessageRoute, messageRouteRequest } from '../../workflows/model/thread/message-route';
import { checkRouteReply, routeTaskMessage } from '../../workflows/model/graph/route-reply';
import type { IndexedEdge } from '../../workflows/model/graph/graph-exits';
import { finishStepTool, parseFinishStepArgs } from '../../workflows/model/tools/finish-step';
import { stepTaskMessage } from '../../workflows/model/step/step-prompts';
import type { LlmToolSpec } from '../../workflows/model/llm/llm-types';

const asTool = (spec: LlmToolSpec) => ({
  type: 'function' as const,
  function: { name: spec.name, description: spec.description, parameters: spec.parameters },
});
const tool = (name: string) => asTool({ name, description: name, parameters: { type: 'object' } });

const routeMessage = (text: string) => {
  // The router's request as Cairn builds it: its instructions, then the message alone.
  const messages = messageRouteRequest(text).flatMap((m) =>
    m.role === 'system' || m.role === 'user' ? [{ role: m.role, content: m.content }] : [],
  );
  const request: ChatCompletionRequest = { model: 'm', messages };
  return checkMessageRoute(demoReply(request, { 'x-cairn-purpose': 'route-message' }).content ?? null);
};

test.each([
  ['What is durable execution?', 'chat'],
  ['how does a workflow survive a crash', 'chat'],
  ['Hello there', 'chat'],
  ['Write a short note about durable execution', 'task'],
  ['Please summarise the attached report', 'task'],
  ['Explain durable execution', 'task'],
  ['Write', 'chat'],
])('the thread router routes %p as %s, in JSON its check accepts', (text, kind) => {
  expect(routeMessage(text)).toMatchObject({ ok: true, route: { kind } });
});

const candidates: IndexedEdge[] = (routerGraph.edges ?? []).flatMap((edge, index) =>
  edge.when && 'llm' in edge.when ? [{ from: edge.from, to: edge.to, when: { llm: edge.when.llm }, index }] : [],
);

const route = (result: string) => {
  const message = routeTaskMessage('classify', result, undefined, candidates);
  const request: ChatCompletionRequest = {
    model: 'm',
    messages: [
      { role: 'system', content: 'router' },
      { role: 'user', content: message },
    ],
  };
  return checkRouteReply(demoReply(request, { 'x-cairn-purpose': 'route' }).content ?? null, candidates);
};

test('the graph router judges the result alone, not the words that introduce it', () => {
  const edges: IndexedEdge[] = [
    { from: 'classify', to: 'done', when: { llm: 'The node finished its result.' }, index: 0 },
    { from: 'classify', to: 'again', when: { llm: 'Something is missing.' }, index: 1 },
  ];
  const message = routeTaskMessage('classify', 'Hello.', undefined, edges);
  const request: ChatCompletionRequest = { model: 'm', messages: [{ role: 'user', content: message }] };
  const content = demoReply(request, { 'x-cairn-purpose': 'route' }).content ?? null;
  expect(checkRouteReply(content, edges)).toMatchObject({ ok: true, reply: { to: null } });
});

test.each([
  ['The export button crashes: a bug.', 'triage'],
  ['This report says the page is blank.', 'triage'],
  ['A feature request: dark mode.', 'spec'],
  ['Say hello to the team.', null],
])('the graph router sends %p to %p, in a reply its check accepts', (result, to) => {
  expect(route(result)).toMatchObject({ ok: true, reply: { to } });
});

const review = reviewLoopGraph.nodes.find((n) => n.id === 'review');
const stepRequest = (message: string, tools = [asTool(finishStepTool(review?.output))]): ChatCompletionRequest => ({
  model: 'm',
  messages: [
    { role: 'system', content: 'node' },
    { role: 'user', content: message },
  ],
  tools,
});
const task = (files: string[] = []) =>
  stepTaskMessage(
    'Write a haiku',
    { id: 'review', title: 'Review', description: 'Review it', depends_on: [] },
    [],
    undefined,
    files,
  );

test.each([
  ['review', false],
  ['review-2', true],
])('visit %s of the review node hands back a verdict its schema accepts, approved: %p', (stepId, approved) => {
  const reply = demoReply(stepRequest(task()), { 'x-cairn-purpose': 'step', 'x-cairn-step': stepId });
  const call = reply.toolCalls?.[0];
  expect(call?.name).toBe('finish_step');
  const parsed = parseFinishStepArgs(JSON.stringify(call?.arguments), review?.output);
  expect(parsed).toMatchObject({ ok: true, output: { approved } });
});

test('a step given files reads them first, saying why, then quotes what it read', () => {
  const tools = [tool('read_file'), asTool(finishStepTool())];
  const first = demoReply(stepRequest(task(['notes.txt', 'data/b.csv']), tools), {
    'x-cairn-purpose': 'step',
    'x-cairn-step': 'facts',
  });
  expect(first.content).toContain('[offline demo model] I read the files');
  expect(first.toolCalls?.map((c) => [c.name, c.arguments])).toEqual([
    ['read_file', { path: 'notes.txt' }],
    ['read_file', { path: 'data/b.csv' }],
  ]);
  const after = stepRequest(task(['notes.txt', 'data/b.csv']), tools);
  after.messages.push(
    {
      role: 'assistant',
      content: first.content ?? null,
      tool_calls: (first.toolCalls ?? []).map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      })),
    },
    { role: 'tool', tool_call_id: 'demo-read-0', content: 'The notes say hello.' },
    { role: 'tool', tool_call_id: 'demo-read-1', content: 'id,item\n1,lamp' },
  );
  const done = demoReply(after, { 'x-cairn-purpose': 'step', 'x-cairn-step': 'facts' });
  const args = done.toolCalls?.[0]?.arguments as { result: string };
  expect(done.toolCalls?.[0]?.name).toBe('finish_step');
  expect(args.result).toContain('notes.txt says: "The notes say hello."');
  expect(args.result).toContain('data/b.csv says: "id,item 1,lamp"');
});

test('the write step says why before its write_file call', () => {
  const tools = [tool('write_file'), asTool(finishStepTool())];
  const reply = demoReply(stepRequest(task(), tools), { 'x-cairn-purpose': 'step', 'x-cairn-step': 'write' });
  expect(reply.toolCalls?.[0]?.name).toBe('write_file');
  expect(reply.content).toMatch(/^\[offline demo model\] I write the note/);
});

test('streamed text comes a few words per piece and joins back whole', () => {
  const text = '  Durable execution keeps\na workflow running through crashes. ';
  const pieces = wordPieces(text, 3);
  expect(pieces.join('')).toBe(text);
  expect(pieces.length).toBeGreaterThan(1);
  for (const piece of pieces) expect(piece.trim().split(/\s+/).length).toBeLessThanOrEqual(3);
});
