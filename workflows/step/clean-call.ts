/**
 * Malformed tool calls kept out of the conversation: a call whose arguments are not a JSON
 * object, or break the tool's schema, is kept in the assistant message with `{}` as its
 * arguments, and its tool error says what was wrong and what was sent. Re-sent verbatim,
 * such arguments make some servers refuse every later request of the step (llama.cpp answers
 * 500 "Failed to parse tool call arguments" while rendering the conversation). Pure.
 */
import { parseAskArgs } from '../model/interactions/ask-schema';
import { regexToRun } from './argument-regex-gate';
import type { LlmToolCall } from '../model/llm/llm-types';
import { parseFinishStepArgs } from '../model/tools/finish-step';
import { ASK_USER, FINISH_STEP, type ToolInfo } from '../model/tools/tool-types';
import { validateArguments } from './validate-arguments';

/** How much of the arguments as sent the tool error quotes. */
const QUOTED_CHARS = 200;

/** The arguments written in place of malformed ones. */
export const EMPTY_ARGUMENTS = '{}';

/** A call as the conversation keeps it, and why its arguments were replaced (if they were). */
export interface CleanCall {
  call: LlmToolCall;
  /** Set when the arguments were replaced: what to add to the call's tool message. */
  replaced?: string;
}

/** Whether `raw` is the JSON text of an object. */
function isJsonObject(raw: string): boolean {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Whether the arguments pass the schema of the tool the call names (unknown tools: any object). */
function passesSchema(call: LlmToolCall, tools: ToolInfo[], canAsk: boolean): boolean {
  if (call.name === FINISH_STEP) return parseFinishStepArgs(call.arguments).ok;
  if (call.name === ASK_USER && canAsk) return parseAskArgs(call.arguments).ok;
  const tool = tools.find((t) => t.name === call.name);
  return !tool || validateArguments(tool.name, tool.parameters, call.arguments, regexToRun(tool.parameters)).ok;
}

/** `call` as the conversation should keep it. */
export function cleanCall(call: LlmToolCall, tools: ToolInfo[], canAsk: boolean): CleanCall {
  const json = isJsonObject(call.arguments);
  if (json && passesSchema(call, tools, canAsk)) return { call };
  const sent = call.arguments.length > QUOTED_CHARS ? `${call.arguments.slice(0, QUOTED_CHARS)}…` : call.arguments;
  const why = json ? 'did not match the tool’s parameters' : 'were not a JSON object';
  return {
    call: { ...call, arguments: EMPTY_ARGUMENTS },
    replaced: `(The arguments ${why} and are shown as {} in this conversation. You sent: ${JSON.stringify(sent)})`,
  };
}
