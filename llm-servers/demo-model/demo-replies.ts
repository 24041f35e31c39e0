/**
 * The offline demo model's script: with no LLM endpoint configured, a newcomer
 * still sees every mechanism in a minute — one question, a plan with parallel steps, a write
 * tool that needs approval (with the model's why), files read and quoted, a summary, a thread
 * that tells questions from tasks, and graphs whose routers and structured outputs work. Every
 * answer says it comes from the demo model. Dispatched on the request's `X-Cairn-Purpose`;
 * any other request that asks for a reply by JSON Schema gets an instance of it. Pure: a
 * function of the request, unit-testable.
 */
import type { ChatCompletionRequest } from '../chat-completions-wire';
import type { DemoReply } from './demo-reply';
import { graphRoute, messageRoute } from './demo-routing';
import { offers, stepReply, textOf } from './demo-steps';
import { schemaInstance, type JsonSchema } from './schema-instance';

export { DEMO_MODEL } from '../../workflows/model/llm/llm-types';
export type { DemoReply } from './demo-reply';

/** The first user message: a call's task, or the message a router judges. */
const firstUser = (request: ChatCompletionRequest) => textOf(request.messages.find((m) => m.role === 'user'));

function taskOf(request: ChatCompletionRequest): string {
  return firstUser(request).split('\n')[0]?.slice(0, 120) || 'the task';
}

const ASK_FORM = {
  kind: 'form',
  prompt: 'A question from the offline demo model: who is the result for?',
  fields: [
    {
      key: 'audience',
      label: 'Audience',
      type: 'select',
      required: true,
      options: ['engineers', 'managers', 'everyone'],
    },
    { key: 'length', label: 'Length in words', type: 'number', required: false, min: 50, max: 500, default: 150 },
  ],
};

function plannerReply(request: ChatCompletionRequest): DemoReply {
  const asked = request.messages.some((m) => m.role === 'tool');
  if (!asked && offers(request, 'ask_user')) {
    return {
      content: '[offline demo model] Before planning I ask who the result is for.',
      reasoning: 'Asking is allowed and nothing was asked yet: ask one question first.',
      toolCalls: [{ id: 'demo-ask', name: 'ask_user', arguments: ASK_FORM }],
    };
  }
  const task = taskOf(request);
  return {
    reasoning: 'Two independent steps can run in parallel; the note is written once both are done.',
    content: JSON.stringify({
      task,
      language: 'en',
      steps: [
        { id: 'facts', title: 'Collect the key facts', description: `List what matters for: ${task}`, depends_on: [] },
        { id: 'angles', title: 'Find two angles', description: `Propose two angles on: ${task}`, depends_on: [] },
        {
          id: 'write',
          title: 'Write the note',
          description: 'Write the note to the workspace',
          depends_on: ['facts', 'angles'],
        },
      ],
      replan: [],
    }),
  };
}

/** The JSON Schema a request asks its reply to match (`response_format.json_schema`), if any. */
function replySchema(request: ChatCompletionRequest): JsonSchema | undefined {
  const format = request.response_format;
  return format?.type === 'json_schema' ? format.json_schema.schema : undefined;
}

function summaryReply(request: ChatCompletionRequest): DemoReply {
  const results = textOf(request.messages.at(-1)).split('\n\n').slice(1).join('\n\n').slice(0, 1500);
  return {
    reasoning: 'Every step is done: gather their results into the answer.',
    content: `**Offline demo answer.** Cairn ran every step of the plan; with a real model configured (OPENAI_BASE_URL / OPENAI_API_KEY) this would be the model's summary.\n\n${results}`,
  };
}

function chatAnswer(request: ChatCompletionRequest): DemoReply {
  const said = textOf(request.messages.at(-1)).slice(0, 200);
  return {
    reasoning: 'A message to answer in words: the demo model echoes it and says what it is.',
    content: `[offline demo model] You said: "${said}". This canned reply comes from Cairn's offline demo model; with a real model configured (OPENAI_BASE_URL / OPENAI_API_KEY) you would get its answer here, word by word as it streams.`,
  };
}

/** The demo's reply to one Chat Completions request. */
export function demoReply(request: ChatCompletionRequest, headers: Record<string, string>): DemoReply {
  switch (headers['x-cairn-purpose']) {
    case 'plan':
    case 'replan':
      return plannerReply(request);
    case 'step':
      return stepReply(request, headers['x-cairn-step'] ?? 'step');
    case 'summary':
      return summaryReply(request);
    case 'route-message':
      return {
        reasoning: 'A question is chat; an instruction with an object is a task.',
        content: JSON.stringify(messageRoute(firstUser(request))),
      };
    case 'route':
      return {
        reasoning: 'Pick the candidate whose condition the result speaks of.',
        content: JSON.stringify(graphRoute(firstUser(request))),
      };
    case 'chat':
      return chatAnswer(request);
    case 'title':
      return { content: `[offline demo model] ${taskOf(request).slice(0, 60)}` };
  }
  const schema = replySchema(request);
  if (schema)
    return { content: JSON.stringify(schemaInstance(schema, { yes: true, text: '[offline demo model] fine' })) };
  return { content: `[offline demo model] ${textOf(request.messages.at(-1)).slice(0, 200)}` };
}
