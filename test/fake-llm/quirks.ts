/**
 * Real servers' misbehaviour, scripted: replies and refusals the way llama.cpp, vLLM, Ollama or
 * a hosted model on a bad day send them — cut replies, reasoning blocks, no usage, tool
 * arguments as objects, a context overflow, a parse error of our own request, and endpoints
 * refusing structured output by name.
 */
import type { RecordedRequest, ReplyFunction } from './scripted-llm';
import { reply, type ErrorReply, type MessageReply } from './replies';

/** llama.cpp's answer when the prompt is longer than the context. */
export const LLAMA_CONTEXT_OVERFLOW = 'the request exceeds the available context size, try increasing it';

/** OpenAI's refusal of a schema strict mode cannot take (its text names the rule, not "strict"). */
export const OPENAI_STRICT_REFUSAL =
  "Invalid schema for response_format 'plan': In context=('properties', 'steps', 'items'), 'required' is " +
  "required to be supplied and to be an array including every key in properties. Missing 'done_when'.";

/** An older llama.cpp's refusal of json_schema. */
export const JSON_SCHEMA_REFUSAL = 'response_format type must be one of "text" or "json_object", but got: json_schema';

export const quirk = {
  /** `content` behind a `<think>` block, with a `reasoning_content` too. */
  thinking(content: string, thoughts = 'Let me think. {"steps": "maybe"} no...'): MessageReply {
    return reply.text(`<think>${thoughts}</think>\n${content}`, { quirks: { reasoningContent: thoughts } });
  },
  /** `scripted` without any `usage` in the answer. */
  noUsage(scripted: MessageReply): MessageReply {
    return { ...scripted, quirks: { ...scripted.quirks, omitUsage: true } };
  },
  /** One tool call whose `arguments` go on the wire as an object, not a JSON string. */
  objectArguments(name: string, args: Record<string, unknown>): MessageReply {
    return reply.toolCalls([{ name, arguments: args }], { quirks: { objectArguments: true } });
  },
  /** llama.cpp's 400 when the conversation is longer than the context. */
  contextOverflow(): ErrorReply {
    return { kind: 'error', status: 400, message: LLAMA_CONTEXT_OVERFLOW };
  },
  /** llama.cpp's 500 when the conversation holds tool arguments it cannot parse. */
  toolArgumentsUnparsable(): ErrorReply {
    return {
      kind: 'error',
      status: 500,
      message: 'Failed to parse tool call arguments as JSON: [json.exception.parse_error.101]',
    };
  },
};

/** Whether a request asks for a JSON Schema reply, a strict one, or a JSON object. */
export function formatOf(request: RecordedRequest): 'json_schema' | 'json_object' | 'text' {
  const format = request.body.response_format?.type;
  return format === 'json_schema' || format === 'json_object' ? format : 'text';
}

function strictOf(request: RecordedRequest): boolean {
  const format = request.body.response_format;
  const tools = request.body.tools ?? [];
  return (
    (format?.type === 'json_schema' && format.json_schema.strict === true) ||
    tools.some((t) => t.type === 'function' && t.function.strict === true)
  );
}

/**
 * An endpoint that refuses a feature with an error naming it (recording each refusal in
 * `refused`), and otherwise answers with `next`.
 */
export function refusing(
  feature: 'strict' | 'json_schema' | 'json_object',
  next: ReplyFunction,
  refused: RecordedRequest[] = [],
): ReplyFunction {
  return (request) => {
    const uses = feature === 'strict' ? strictOf(request) : formatOf(request) === feature;
    if (!uses) return next(request);
    refused.push(request);
    const message =
      feature === 'strict'
        ? OPENAI_STRICT_REFUSAL
        : feature === 'json_schema'
          ? JSON_SCHEMA_REFUSAL
          : "'response_format.type' json_object is not supported by this model";
    return { kind: 'error', status: feature === 'json_schema' ? 500 : 400, message };
  };
}
