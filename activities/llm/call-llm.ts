/**
 * The `callLlm` activity: one Chat Completions request through the `openai` client, with the
 * `X-Cairn-*` headers (docs/contracts.md#llm-protocol), cancellation wired to the activity, and errors classified.
 * Every request carries a `max_tokens` for its purpose (max-tokens.ts) and asks for the most
 * structured output the endpoint takes for the model (model-capabilities.ts); a refusal by name
 * steps down once and the call goes on, telling the timeline in `notices`. The request streams
 * where the endpoint can (stream-support.ts): the activity heartbeats once a second, viewers
 * get the deltas (activities/live), and the result is the whole reply, read exactly as a
 * non-streamed one (request-completion.ts).
 */
import { Context } from '@temporalio/activity';
import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { ApplicationFailure } from '@temporalio/common';
import { APIError } from 'openai';
import {
  currentLlmCallInput,
  type LegacyLlmCallInput,
  type LlmCallInput,
  type LlmCallResult,
} from '../../workflows/model/llm/llm-call-schema';
import type { LlmMessage, LlmToolSpec } from '../../workflows/model/llm/llm-types';
import { costOf, type PriceTable } from '../../config/price-config';
import type { LlmModelTable } from '../../config/llm-models-config';
import type { Redactor } from '../../config/redact-secrets';
import { classifyLlmError } from './classify-llm-error';
import { maxTokensFor } from './max-tokens';
import { finishStepTool } from '../../workflows/model/tools/finish-step';
import { FINISH_STEP } from '../../workflows/model/tools/tool-types';
import { createCapabilityStore, type CapabilityStore, type ModelCapabilities } from './model-capabilities';
import { readReasoning, readToolCalls, readUsage, stripReasoning } from './read-completion';
import { replyJsonSchema } from './reply-schemas';
import { requestCompletion } from './request-completion';
import { cannotStreamNotice, createStreamSupport, isStreamRefusal, type StreamSupport } from './stream-support';
import { openLiveCall, type LivePublisher } from '../live/live-call';
import { loadImages, withImageParts, type LoadedImages } from './image-parts';

const HEARTBEAT_EVERY_MS = 1_000;

/** What the LLM activities need from the outside world. */
export interface LlmDeps {
  openai: OpenAI;
  /** The workspace root, where a vision model's images are loaded from; no images are sent without it. */
  workspace?: string;
  /** Model name used when the agent input names none. */
  defaultModel: string;
  /** Reads a conversation lent by reference (the workflow's `conversation` query). */
  readConversation(ref: NonNullable<LlmCallInput['conversation']>): Promise<LlmMessage[]>;
  /** The model-facing spec of a tool name (built-in or registered). */
  toolSpec(name: string): LlmToolSpec | undefined;
  /** Removes secrets from error text before it is recorded anywhere. */
  redact: Redactor;
  /** Prices per model; a model it does not name has an unknown cost. */
  prices?: PriceTable;
  /** Per-model reply budgets and pinned capabilities (`CAIRN_LLM_MODELS`). */
  models?: LlmModelTable;
  /** What the endpoint takes per model, learned in this process; one is made when absent. */
  capabilities?: CapabilityStore;
  /** Which endpoints stream, learned in this process; one where every endpoint may is made when absent. */
  streams?: StreamSupport;
  /** Where viewers get a call's deltas as it streams; none when absent. */
  live?: LivePublisher;
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

function toOpenAiTool(tool: LlmToolSpec, strict: boolean): ChatCompletionTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      ...(strict ? { strict: true } : {}),
    },
  };
}

/** The response format a call asks for, as far as the endpoint's capabilities go. */
function responseFormatOf(
  input: LlmCallInput,
  caps: ModelCapabilities,
): ChatCompletionCreateParamsNonStreaming['response_format'] {
  if (!input.json && !input.schema) return undefined;
  if (input.schema && caps.responseFormat === 'json_schema') {
    return {
      type: 'json_schema',
      json_schema: {
        name: input.schema,
        schema: replyJsonSchema(input.schema),
        ...(caps.strict ? { strict: true } : {}),
      },
    };
  }
  return caps.responseFormat === 'text' ? undefined : { type: 'json_object' };
}

/** What `buildRequest` needs beyond the call: the default model, its capabilities and settings. */
export interface RequestContext {
  defaultModel: string;
  /** Images of a vision model's conversation, loaded from the workspace (image-parts.ts). */
  images?: LoadedImages;
  capabilities?: ModelCapabilities;
  models?: LlmModelTable;
}

const FULL_CAPABILITIES: ModelCapabilities = { responseFormat: 'json_schema', strict: true, tools: true };

/** Builds the request body; exported for unit tests. */
export function buildRequest(
  input: LlmCallInput,
  messages: LlmMessage[],
  tools: LlmToolSpec[],
  context: RequestContext,
): ChatCompletionCreateParamsNonStreaming {
  const m = input.model ?? {};
  const model = m.name ?? context.defaultModel;
  const caps = context.capabilities ?? FULL_CAPABILITIES;
  const responseFormat = responseFormatOf(input, caps);
  return {
    model,
    messages: context.images
      ? withImageParts(messages, messages.map(toOpenAiMessage), context.images)
      : messages.map(toOpenAiMessage),
    ...(m.temperature !== undefined ? { temperature: m.temperature } : {}),
    ...(m.topP !== undefined ? { top_p: m.topP } : {}),
    ...(m.reasoningEffort !== undefined && caps.reasoningEffort !== false
      ? { reasoning_effort: m.reasoningEffort }
      : {}),
    max_tokens: maxTokensFor(input.purpose, model, m.maxTokens, context.models),
    ...(m.stop ? { stop: m.stop } : {}),
    ...(tools.length ? { tools: tools.map((tool) => toOpenAiTool(tool, caps.strict)) } : {}),
    // Only beside tools: an endpoint refuses a tool_choice without them.
    ...(tools.length && m.toolChoice ? { tool_choice: m.toolChoice } : {}),
    ...(responseFormat ? { response_format: responseFormat } : {}),
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
    if (name === FINISH_STEP && input.finishOutput) return finishStepTool(input.finishOutput);
    const spec = deps.toolSpec(name);
    if (!spec) throw ApplicationFailure.nonRetryable(`no tool named "${name}" on this worker`, 'LLM_REJECTED');
    return spec;
  });
}

/** Most refusals one call steps down through: strict, then json_schema, then json_object. */
const MAX_STEP_DOWNS = 3;

export function createLlmActivities(deps: LlmDeps) {
  const { openai, defaultModel } = deps;
  const store = deps.capabilities ?? createCapabilityStore(deps.models);
  const streams = deps.streams ?? createStreamSupport();
  const endpoint = openai.baseURL;
  return {
    /** One model call; see LlmCallInput. */
    callLlm: async (received: LlmCallInput | LegacyLlmCallInput): Promise<LlmCallResult> => {
      const input = currentLlmCallInput(received);
      const headers: Record<string, string> = { 'X-Cairn-Purpose': input.purpose, 'X-Cairn-Agent': input.ownerId };
      if (input.stepId !== undefined) headers['X-Cairn-Step'] = input.stepId;
      const messages = await conversationOf(input, deps);
      const images =
        input.model?.vision && deps.workspace ? await loadImages(messages, deps.workspace, input.ownerId) : undefined;
      const tools = toolsOf(input, deps);
      const model = input.model?.name ?? defaultModel;
      const context = Context.current();
      const notices: string[] = [];
      const live = openLiveCall(deps.live, context.info, input);
      // Heartbeats are how a cancellation reaches a running activity, and how a dead worker is
      // noticed: once a second, streamed or not (not per chunk — the SDK sends a throttle's
      // first beat at once, an RPC for every call however short).
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      let request;
      let reply;
      try {
        for (let downs = 0; ; downs++) {
          const capabilities = store.get(endpoint, model);
          request = buildRequest(input, messages, tools, {
            defaultModel,
            capabilities,
            models: deps.models,
            ...(images ? { images } : {}),
          });
          const stream = streams.canStream(endpoint, model);
          live.started(stream);
          try {
            reply = await requestCompletion(openai, request, {
              stream,
              headers,
              signal: context.cancellationSignal,
              onDeltas: (deltas) => live.deltas(deltas),
            });
            if (stream && !reply.streamed) noteCannotStream(model);
            break;
          } catch (err) {
            if (stream && isStreamRefusal(err)) {
              noteCannotStream(model);
              continue;
            }
            const refused = downs < MAX_STEP_DOWNS && err instanceof APIError && err.status !== undefined;
            const step = refused ? store.downgrade(endpoint, model, sentFeatures(request), err.message) : undefined;
            if (!step) throw err;
            notices.push(step.notice);
            context.log.warn(`LLM ${endpoint}: ${step.notice}`);
          }
        }
      } catch (err) {
        const failure = classifyLlmError(err, deps.redact);
        const outcome = context.cancellationSignal.aborted ? 'cancelled' : 'failed';
        await live.finished(outcome, failure.type ? { error: failure.type } : {});
        throw failure;
      } finally {
        clearInterval(beat);
      }
      const { completion, streamed } = reply;
      const choice = completion.choices?.[0];
      if (!choice) {
        await live.finished('failed', { error: 'LLM_BAD_RESPONSE' });
        throw classifyLlmError(new Error('the completion has no choices'), deps.redact);
      }
      const toolCalls = readToolCalls(choice.message);
      const content = stripReasoning(choice.message.content);
      const usage = readUsage(
        completion,
        JSON.stringify(request.messages),
        (choice.message.content ?? '') + toolCalls.map((c) => c.arguments).join(''),
      );
      // Priced by the model asked for, else by the name the endpoint answered with.
      const price = deps.prices?.[request.model] ?? deps.prices?.[completion.model];
      usage.costUsd = costOf(usage, price);
      await live.finished('completed', { finishReason: choice.finish_reason });
      // Only a step keeps reasoning (its transcript): other calls' results stay as they were.
      const reasoning = input.purpose === 'step' ? readReasoning(choice.message) : undefined;
      return {
        content,
        toolCalls,
        finishReason: choice.finish_reason,
        model: completion.model,
        usage,
        streamed,
        ...(reasoning !== undefined ? { reasoning } : {}),
        ...(notices.length ? { notices } : {}),
      };

      /** Remembers an endpoint that cannot stream; the first call to find out tells the timeline and the log. */
      function noteCannotStream(name: string): void {
        if (!streams.cannotStream(endpoint, name)) return;
        const notice = cannotStreamNotice(name);
        notices.push(notice);
        context.log.warn(`LLM ${endpoint}: ${notice}`);
      }
    },
  };
}

/** What a request asked of the endpoint that it may refuse. */
function sentFeatures(request: ChatCompletionCreateParamsNonStreaming) {
  const format = request.response_format?.type;
  const strictSchema = format === 'json_schema' && request.response_format?.json_schema.strict === true;
  const strictTools = (request.tools ?? []).some((t) => t.type === 'function' && t.function.strict === true);
  return {
    ...(format === 'json_schema' || format === 'json_object' ? { responseFormat: format } : {}),
    strict: strictSchema || strictTools,
    ...(request.reasoning_effort !== undefined ? { reasoningEffort: true } : {}),
  };
}
