/**
 * The `callLlm` activity: one Chat Completions request through the `openai` client, with the
 * `X-Cairn-*` headers (docs/contracts.md#llm-protocol), cancellation wired to the activity, and errors classified.
 */
import { Context } from '@temporalio/activity';
import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { ApplicationFailure } from '@temporalio/common';
import type { LlmCallInput, LlmCallResult, LlmMessage, LlmToolSpec } from '../../workflows/llm-types';
import type { Redactor } from '../../config/redact-secrets';
import { classifyLlmError } from './classify-llm-error';

const HEARTBEAT_EVERY_MS = 1_000;

/** What the LLM activities need from the outside world. */
export interface LlmDeps {
  openai: OpenAI;
  /** Model name used when the agent input names none. */
  defaultModel: string;
  /** Reads a conversation lent by reference (the workflow's `conversation` query). */
  readConversation(ref: NonNullable<LlmCallInput['conversation']>): Promise<LlmMessage[]>;
  /** The model-facing spec of a tool name (built-in or registered). */
  toolSpec(name: string): LlmToolSpec | undefined;
  /** Removes secrets from error text before it is recorded anywhere. */
  redact: Redactor;
}

function toOpenAiMessage(message: LlmMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
  }
}

function toOpenAiTool(tool: LlmToolSpec): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

/** Builds the request body; exported for unit tests. */
export function buildRequest(
  input: LlmCallInput,
  messages: LlmMessage[],
  tools: LlmToolSpec[],
  defaultModel: string,
): ChatCompletionCreateParamsNonStreaming {
  const m = input.model ?? {};
  return {
    model: m.name ?? defaultModel,
    messages: messages.map(toOpenAiMessage),
    ...(m.temperature !== undefined ? { temperature: m.temperature } : {}),
    ...(m.topP !== undefined ? { top_p: m.topP } : {}),
    ...(m.maxTokens !== undefined ? { max_tokens: m.maxTokens } : {}),
    ...(tools.length ? { tools: tools.map(toOpenAiTool) } : {}),
    ...(input.json ? { response_format: { type: 'json_object' as const } } : {}),
  };
}

/** Creates the LLM activities over an injected client. */
/** The conversation of a call: inline, or read by reference and checked for length. */
async function conversationOf(input: LlmCallInput, deps: LlmDeps): Promise<LlmMessage[]> {
  if (input.messages) return input.messages;
  if (!input.conversation)
    throw ApplicationFailure.nonRetryable('an LLM call needs messages or a conversation', 'LLM_REJECTED');
  const messages = await deps.readConversation(input.conversation);
  if (messages.length !== input.conversation.length) {
    // The run moved on (or was reset) under this call: retrying reads it afresh.
    throw ApplicationFailure.retryable(
      `conversation "${input.conversation.key}" has ${messages.length} messages, expected ${input.conversation.length}`,
      'LLM_BAD_RESPONSE',
    );
  }
  return messages;
}

function toolsOf(input: LlmCallInput, deps: LlmDeps): LlmToolSpec[] {
  return (input.toolNames ?? []).map((name) => {
    const spec = deps.toolSpec(name);
    if (!spec) throw ApplicationFailure.nonRetryable(`no tool named "${name}" on this worker`, 'LLM_REJECTED');
    return spec;
  });
}

export function createLlmActivities(deps: LlmDeps) {
  const { openai, defaultModel } = deps;
  return {
    /** One model call; see LlmCallInput. */
    callLlm: async (input: LlmCallInput): Promise<LlmCallResult> => {
      const headers: Record<string, string> = { 'X-Cairn-Purpose': input.purpose, 'X-Cairn-Agent': input.agentId };
      if (input.stepId !== undefined) headers['X-Cairn-Step'] = input.stepId;
      const request = buildRequest(input, await conversationOf(input, deps), toolsOf(input, deps), defaultModel);
      const context = Context.current();
      // Heartbeats are how a cancellation reaches a running activity.
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      let completion;
      try {
        completion = await openai.chat.completions.create(request, {
          headers,
          signal: context.cancellationSignal,
        });
      } catch (err) {
        throw classifyLlmError(err, deps.redact);
      } finally {
        clearInterval(beat);
      }
      const choice = completion.choices?.[0];
      if (!choice) throw classifyLlmError(new Error('the completion has no choices'), deps.redact);
      const toolCalls = (choice.message.tool_calls ?? []).flatMap((c) =>
        c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
      );
      const usage = completion.usage;
      return {
        content: choice.message.content ?? null,
        toolCalls,
        finishReason: choice.finish_reason,
        model: completion.model,
        usage: {
          promptTokens: usage?.prompt_tokens ?? 0,
          completionTokens: usage?.completion_tokens ?? 0,
          totalTokens: usage?.total_tokens ?? 0,
        },
      };
    },
  };
}
