/**
 * Quirks of real model servers in a step's ReAct loop, for the scripted fake: replies a weak
 * model gives (many tool calls at once, the same call again and again, arguments that are not
 * JSON) and what a strict server answers to what we send (llama.cpp's 500 when a request's
 * history holds tool arguments it cannot parse, its 400 when a request exceeds the context).
 * The server-side quirks wrap a reply function, so they compose with `byRoute`.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { reply, type MessageReply, type ScriptedReply } from './replies';
import type { RecordedRequest, ReplyFunction } from './scripted-llm';

/** Replies of a model that lost its way. */
export const quirk = {
  /** A tool call whose arguments are `raw` exactly as written (e.g. JSON cut short). */
  malformedCall(name: string, raw: string, id?: string): MessageReply {
    return reply.toolCalls([{ name, arguments: raw, ...(id ? { id } : {}) }]);
  },
  /** One reply calling `name` once per arguments object, all at once. */
  manyCalls(name: string, argsList: unknown[]): MessageReply {
    return reply.toolCalls(argsList.map((args) => ({ name, arguments: args })));
  },
  /** `times` replies, each the same single call. */
  sameCall(name: string, args: unknown, times: number): MessageReply[] {
    return Array.from({ length: times }, () => reply.toolCall(name, args));
  },
};

/** The tool arguments of the assistant messages of `request` that are not JSON. */
export function unparsableArguments(request: RecordedRequest): string[] {
  const messages: ChatCompletionMessageParam[] = request.body.messages;
  return messages.flatMap((m) =>
    m.role === 'assistant'
      ? (m.tool_calls ?? []).flatMap((c) => {
          if (c.type !== 'function') return [];
          try {
            JSON.parse(c.function.arguments);
            return [];
          } catch {
            return [c.function.arguments];
          }
        })
      : [],
  );
}

/**
 * Answers like llama.cpp's server: a request whose history holds tool arguments that are not
 * JSON gets 500 "Failed to parse tool call arguments" (every time: the request itself is the
 * fault), else `next` answers.
 */
export function rejectUnparsableArguments(next: ReplyFunction): ReplyFunction {
  return (request): ScriptedReply | undefined => {
    const bad = unparsableArguments(request);
    if (bad.length > 0) return reply.error(500, `Failed to parse tool call arguments as JSON: ${bad[0]}`);
    return next(request);
  };
}

/** The tokens of a request as the fake counts them: 4 characters of its messages and tools a token. */
export function requestTokens(request: RecordedRequest): number {
  return Math.ceil(JSON.stringify([request.body.messages, request.body.tools ?? []]).length / 4);
}

/**
 * Answers like a server with a context window of `contextTokens`: a larger request gets 400
 * "exceeds the available context size", else `next` answers.
 */
export function contextWindow(contextTokens: number, next: ReplyFunction): ReplyFunction {
  return (request): ScriptedReply | undefined => {
    const tokens = requestTokens(request);
    if (tokens > contextTokens) {
      return reply.error(
        400,
        `the request exceeds the available context size (${tokens} > ${contextTokens} tokens), try increasing it`,
      );
    }
    return next(request);
  };
}
