/**
 * The offline demo model's script: with no LLM endpoint configured, a newcomer
 * still sees every mechanism in a minute — one question, a plan with parallel steps, a write
 * tool that needs approval, and a summary. Every answer says it comes from the demo model.
 * Pure: a function of the request, unit-testable.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatCompletionRequest } from '../chat-completions-wire';

export { DEMO_MODEL } from '../../workflows/llm-types';

/** What the demo answers: text, or tool calls. */
export type DemoReply = { content: string } | { toolCalls: { id: string; name: string; arguments: unknown }[] };

function text(message: ChatCompletionMessageParam | undefined): string {
  return typeof message?.content === 'string' ? message.content : '';
}

function offers(request: ChatCompletionRequest, name: string): boolean {
  return (request.tools ?? []).some((t) => t.type === 'function' && t.function.name === name);
}

function taskOf(request: ChatCompletionRequest): string {
  const first = request.messages.find((m) => m.role === 'user');
  return text(first).split('\n')[0]?.slice(0, 120) || 'the task';
}

function plannerReply(request: ChatCompletionRequest): DemoReply {
  const asked = request.messages.some((m) => m.role === 'tool');
  if (!asked && offers(request, 'ask_user')) {
    return {
      toolCalls: [
        {
          id: 'demo-ask',
          name: 'ask_user',
          arguments: {
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
              {
                key: 'length',
                label: 'Length in words',
                type: 'number',
                required: false,
                min: 50,
                max: 500,
                default: 150,
              },
            ],
          },
        },
      ],
    };
  }
  const task = taskOf(request);
  return {
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

function stepReply(request: ChatCompletionRequest, stepId: string): DemoReply {
  const results = request.messages.filter((m) => m.role === 'tool').map(text);
  if (stepId === 'write' && results.length === 0 && offers(request, 'write_file')) {
    const body = `# Demo note\n\n${text(request.messages.find((m) => m.role === 'user')).slice(0, 1500)}\n\n_Written by Cairn's offline demo model._\n`;
    return {
      toolCalls: [{ id: 'demo-write', name: 'write_file', arguments: { path: 'demo/note.md', content: body } }],
    };
  }
  const outcome = results.length ? ` (tool said: ${results.join('; ').slice(0, 200)})` : '';
  return {
    toolCalls: [
      {
        id: `demo-finish-${results.length}`,
        name: 'finish_step',
        arguments: { result: `[demo] ${stepId} done${outcome}.` },
      },
    ],
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
      return {
        content: `**Offline demo answer.** Cairn ran every step of the plan; with a real model configured (OPENAI_BASE_URL / OPENAI_API_KEY) this would be the model's summary.\n\n${text(request.messages.at(-1)).split('\n\n').slice(1).join('\n\n').slice(0, 1500)}`,
      };
    default:
      return { content: `[offline demo model] ${text(request.messages.at(-1)).slice(0, 200)}` };
  }
}
