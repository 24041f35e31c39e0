/**
 * The offline demo model's step replies, canned and deterministic, read from the words Cairn
 * sends a step (workflows/model/step/step-prompts.ts). A step that was given files and depends on no
 * other reads them with `read_file` first; the planned `write` step writes its note with
 * `write_file` (a write: the person approves it); then `finish_step` hands back a result that
 * quotes what the step read and, for a graph node with an output schema, an instance of it
 * (schema-instance.ts) whose booleans say no on a node's first visit and yes on later ones —
 * so a review loop goes round once, then approves. Every tool call comes with a sentence of
 * why in the same reply, as a model that explains itself writes, so an approval shows it.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatCompletionRequest } from '../chat-completions-wire';
import { schemaInstance, type JsonSchema } from './schema-instance';
import type { DemoReply } from './demo-reply';

/** Files read by one step at most. */
const MAX_READS = 3;
/** Characters of a file a result quotes. */
const QUOTE_CHARS = 160;

const FILES_HEADING = 'Files given with the task (paths for read_file):';
const DEPENDENCIES_HEADING = 'Results of the steps this one depends on:';

/** A message's text. */
export function textOf(message: ChatCompletionMessageParam | undefined): string {
  return typeof message?.content === 'string' ? message.content : '';
}

/** Whether the request offers tool `name`. */
export function offers(request: ChatCompletionRequest, name: string): boolean {
  return (request.tools ?? []).some((t) => t.type === 'function' && t.function.name === name);
}

/** The step's task message: the first user message. */
const taskMessage = (request: ChatCompletionRequest) => textOf(request.messages.find((m) => m.role === 'user'));

/** The overall task, as the step's task message names it. */
function overallTask(message: string): string {
  const line = message.split('\n').find((l) => l.startsWith('Overall task: '));
  return (line?.slice('Overall task: '.length) ?? message.split('\n')[0] ?? '').slice(0, 200) || 'the task';
}

/** The files the step's task message lists (`- path` lines under their heading). */
export function filesGiven(message: string): string[] {
  const at = message.indexOf(FILES_HEADING);
  if (at < 0) return [];
  const block = message.slice(at + FILES_HEADING.length).split('\n\n')[0] ?? '';
  return block
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) => l.slice(2).trim())
    .filter(Boolean);
}

/** The calls made so far in this step, each with its tool's answer. */
function callsSoFar(request: ChatCompletionRequest): { name: string; args: string; result: string }[] {
  const results = new Map<string, string>();
  for (const m of request.messages) if (m.role === 'tool') results.set(m.tool_call_id, textOf(m));
  return request.messages.flatMap((m) =>
    m.role === 'assistant'
      ? (m.tool_calls ?? []).flatMap((c) =>
          c.type === 'function'
            ? [{ name: c.function.name, args: c.function.arguments, result: results.get(c.id) ?? '' }]
            : [],
        )
      : [],
  );
}

/** The schema of `finish_step`'s `output` argument, when the request's node declares one. */
function outputSchema(request: ChatCompletionRequest): JsonSchema | undefined {
  const finish = (request.tools ?? []).find((t) => t.type === 'function' && t.function.name === 'finish_step');
  if (finish?.type !== 'function') return undefined;
  const properties = finish.function.parameters?.properties;
  const output = typeof properties === 'object' && properties !== null ? (properties as JsonSchema).output : undefined;
  return typeof output === 'object' && output !== null ? (output as JsonSchema) : undefined;
}

/** Which visit of its node a step is: graph visits after the first end in `-<n>`. */
export function visitOf(stepId: string): number {
  const match = /-(\d+)$/.exec(stepId);
  return match ? Number(match[1]) : 1;
}

const pathOf = (args: string): string => {
  try {
    const parsed: unknown = JSON.parse(args);
    const path = typeof parsed === 'object' && parsed !== null ? (parsed as { path?: unknown }).path : undefined;
    return typeof path === 'string' ? path : '?';
  } catch {
    return '?';
  }
};

const oneLine = (text: string, chars: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars)}…`;
};

function finishReply(request: ChatCompletionRequest, stepId: string, task: string): DemoReply {
  const calls = callsSoFar(request);
  const reads = calls.filter((c) => c.name === 'read_file');
  const others = calls.filter((c) => c.name !== 'read_file');
  const quotes = reads.map((c) => `${pathOf(c.args)} says: "${oneLine(c.result, QUOTE_CHARS)}"`);
  const outcome = others.map((c) => `${c.name} said: ${oneLine(c.result, 120)}`);
  const result = [`[offline demo model] Step ${stepId} done for: ${task}.`, ...quotes, ...outcome].join('\n');
  const schema = outputSchema(request);
  const visit = visitOf(stepId);
  const yes = visit > 1;
  const text = yes
    ? `[offline demo model] Fine as it is (visit ${visit}).`
    : '[offline demo model] One more round, please: tighten the wording.';
  const args = schema ? { result, output: schemaInstance(schema, { yes, text }) } : { result };
  return {
    content: `[offline demo model] Step ${stepId} is done; I hand back its result.`,
    reasoning: `The script says: ${calls.length} tool call(s) made, nothing left to do in ${stepId}, so finish_step${schema ? ` with an output whose booleans are ${yes}` : ''}.`,
    toolCalls: [{ id: `demo-finish-${calls.length}`, name: 'finish_step', arguments: args }],
  };
}

/** The demo's reply to a step's request; `stepId` from `X-Cairn-Step`. */
export function stepReply(request: ChatCompletionRequest, stepId: string): DemoReply {
  const message = taskMessage(request);
  const task = overallTask(message);
  const calls = callsSoFar(request);
  const files = filesGiven(message).slice(0, MAX_READS);
  const dependsOnOthers = message.includes(DEPENDENCIES_HEADING);
  if (files.length > 0 && !dependsOnOthers && offers(request, 'read_file') && calls.length === 0) {
    return {
      content: `[offline demo model] I read ${files.length === 1 ? 'the file' : 'the files'} given with the task first, to quote ${files.length === 1 ? 'it' : 'them'} in the result.`,
      reasoning: `Files were given (${files.join(', ')}) and nothing is read yet: read them before anything else.`,
      toolCalls: files.map((path, i) => ({ id: `demo-read-${i}`, name: 'read_file', arguments: { path } })),
    };
  }
  if (stepId === 'write' && !calls.some((c) => c.name === 'write_file') && offers(request, 'write_file')) {
    const body = `# Demo note\n\n${message.slice(0, 1500)}\n\n_Written by Cairn's offline demo model._\n`;
    return {
      content:
        '[offline demo model] I write the note to demo/note.md so the result is kept in the workspace, where you can open it.',
      reasoning: 'This is the writing step and no note exists yet: write it, which needs a person to approve.',
      toolCalls: [{ id: 'demo-write', name: 'write_file', arguments: { path: 'demo/note.md', content: body } }],
    };
  }
  return finishReply(request, stepId, task);
}
