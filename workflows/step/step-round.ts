/**
 * One round of a step's ReAct loop: the model call with the step's tools, then each tool call
 * in order, its result appended as a tool message paired by call id. The round ends with the
 * step's result (`finish_step`, or a plain text reply — many models answer that way), or with
 * nothing yet; a failed model call ends the step.
 */
import { isCancellation, patched } from '@temporalio/workflow';
import { llmCall } from '../runtime/activity-proxies';
import type { Conversations } from '../runtime/conversation';
import { describeFailure } from '../runtime/describe-failure';
import type { ErrorCode } from '../base/error-codes';
import { conversationBudget, estimateTextTokens, fitConversation } from '../model/llm/fit-conversation';
import type { LlmCallInput } from '../model/llm/llm-call-schema';
import type { LlmToolCall } from '../model/llm/llm-types';
import type { StepNotice, StepProgress } from '../contract/messages';
import type { ToolInfo } from '../model/tools/tool-types';
import { cleanCall } from './clean-call';
import { type LoopGuards } from './loop-guards';
import type { CallResult, StepToolsContext } from './step-tool-types';
import { runToolCall, toolMessage } from './step-tools';
import type { StepTranscript } from './step-transcript';
import { approvalWhy, outcomeOf } from '../contract/transcript-bounds';
import { PATCHES } from '../base/patches';

/** What a step's model hears when its text reply was cut at its token limit. */
export function cutReplyNote(tokens: number): string {
  return (
    `Your last reply was cut at its token limit (${tokens} tokens), so it was not taken as the step's result. ` +
    'Go on more briefly, or call finish_step with a short result.'
  );
}

/** The key of the step's conversation. */
export const STEP_CONVERSATION = 'step';

/** The key of the step's conversation as last sent, when it had to be cut to fit the model's context. */
export const STEP_WINDOW = 'step-window';

/**
 * What a round needs: the step's tools context (with the ledger of what the round spent and which
 * of its tool calls finished — a step cancelled mid-round hands those back with its partial
 * result), its conversation, the offered tool names and the loop guards.
 */
export interface RoundContext {
  tools: StepToolsContext;
  conversations: Conversations;
  toolNames: string[];
  guards: LoopGuards;
  /** What the model said each round, for the `transcript` query (memory only: no command). */
  transcript: StepTranscript;
}

/** How a round ended: its report and, when the step is done, the result. */
export type RoundEnd =
  | { kind: 'round'; report: StepProgress; finished?: string; extras?: CallResult['extras'] }
  | { kind: 'failed'; code: ErrorCode; error: string; report?: StepProgress };

/** What a graph node's model hears when it answers in text instead of handing back its structured output. */
const OUTPUT_NEEDED_NOTE =
  'This step must end with a finish_step call carrying its result and its structured output; call finish_step now.';

export async function runRound(ctx: RoundContext, round: number): Promise<RoundEnd> {
  const { input } = ctx.tools;
  const { step } = input;
  let reply;
  // Held by the agent (paused, over budget): no new model call. No await when free: replay stays.
  if (ctx.tools.link.mustWait()) await ctx.tools.link.whenFree();
  try {
    reply = await llmCall(`${step.id} · round ${round}`, {
      purpose: 'step',
      ownerId: input.agentId,
      stepId: step.id,
      ...conversationToSend(ctx),
      toolNames: ctx.toolNames,
      ...(input.model ? { model: input.model } : {}),
      ...(input.node?.output ? { finishOutput: input.node.output } : {}),
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    const { code, message } = describeFailure(err);
    return { kind: 'failed', code, error: message };
  }
  // Counted before the tool calls run: a nested agent started by one of them is given the budget
  // left less this reply, and a step cancelled meanwhile hands this usage back with its partial result.
  ctx.tools.ledger.spend(reply.usage);
  const cleaned = reply.toolCalls.map((call) => cleanCall(call, input.tools, input.canAsk));
  ctx.conversations.append(STEP_CONVERSATION, {
    role: 'assistant',
    content: reply.content,
    ...(reply.toolCalls.length ? { toolCalls: cleaned.map((c) => c.call) } : {}),
  });
  ctx.transcript.replied(round, reply.content, reply.reasoning, reply.toolCalls);
  // An approval says why the model wants the call: the end of its text before it (patched: a new field).
  const why = approvalWhy(reply.content);
  let finished: string | undefined;
  let extras: CallResult['extras'];
  let spent = false;
  for (const [index, call] of reply.toolCalls.entries()) {
    const { image, ...result } = await guardedCall(ctx, call, index, spent, why);
    const replaced = cleaned[index]?.replaced;
    const content = replaced ? `${result.content}\n${replaced}` : result.content;
    ctx.conversations.append(STEP_CONVERSATION, toolMessage(call.id, content, image));
    ctx.transcript.settled(round, index, outcomeOf(result.content, result.rejected), content);
    if (result.record) ctx.tools.ledger.record(result.record);
    if (finished === undefined && result.finished !== undefined) ({ finished, extras } = result);
    if (result.failed && ctx.guards.failed() && !spent && patched(PATCHES.stepLoopGuards)) {
      spent = true;
      ctx.guards.note(ctx.guards.budgetError(step.id));
    }
  }
  // A cut text reply is not an answer: the model hears so, and the step goes on.
  const cut = reply.toolCalls.length === 0 && reply.finishReason === 'length' && patched(PATCHES.stepCutReply);
  if (cut)
    ctx.conversations.append(STEP_CONVERSATION, { role: 'user', content: cutReplyNote(reply.usage.completionTokens) });
  else if (reply.toolCalls.length === 0 && input.node?.output)
    // A node with a structured output finishes only through finish_step, which checks it.
    ctx.conversations.append(STEP_CONVERSATION, { role: 'user', content: OUTPUT_NEEDED_NOTE });
  else if (reply.toolCalls.length === 0 && reply.content?.trim()) {
    finished = reply.content.trim();
    if (ctx.toolNames.length > 0 && looksLikeToolCall(finished, ctx.toolNames)) {
      ctx.guards.note(
        'the model wrote what looks like a tool call as text instead of calling the tool: its server may drop tools (check the chat template); the text was taken as the result',
      );
    }
  }
  const notices: StepNotice[] = [
    ...(reply.notices ?? []).map((message): StepNotice => ({ type: 'llm.notice', message })),
    ...(cut
      ? [{ type: 'llm.cut' as const, message: `${step.id}: the reply was cut at its token limit; the step goes on` }]
      : []),
    ...ctx.guards.takeNotes().map((message): StepNotice => ({ type: 'step.guard', message })),
  ];
  const { usage, toolCalls } = ctx.tools.ledger.settle();
  const report: StepProgress = {
    stepId: step.id,
    round,
    model: reply.model,
    ...(reply.streamed !== undefined ? { streamed: reply.streamed } : {}),
    usage,
    toolCalls,
    ...(notices.length ? { notices } : {}),
  };
  if (spent && finished === undefined) {
    const error = `STEP_TOOL_ERRORS: ${ctx.guards.budgetError(step.id)}`;
    return { kind: 'failed', code: 'STEP_TOOL_ERRORS', error, report };
  }
  return {
    kind: 'round',
    report,
    ...(finished !== undefined ? { finished } : {}),
    ...(extras ? { extras } : {}),
  };
}

/**
 * Runs one call unless a loop guard refuses it (only where the guards' patch applies: kept
 * histories replay as they ran). Once the error budget is `spent`, no further call runs.
 */
async function guardedCall(
  ctx: RoundContext,
  call: LlmToolCall,
  index: number,
  spent: boolean,
  why: string | undefined,
): Promise<CallResult> {
  const refusal = spent ? 'not run: the step ends, too many of its tool calls failed' : ctx.guards.refusal(call, index);
  if (refusal === undefined || !patched(PATCHES.stepLoopGuards)) return runToolCall(ctx.tools, call, why);
  if (!spent) ctx.guards.note(`${call.name} ${refusal}`);
  return { content: `error: ${refusal}`, failed: !spent };
}

/**
 * The conversation for the next call: whole, or — when its estimate is over the model's
 * context — head, note and latest rounds, lent under STEP_WINDOW (activity input only: the
 * commands the step sends stay the same).
 */
export function conversationToSend(ctx: RoundContext): Pick<LlmCallInput, 'messages' | 'conversation'> {
  const { input } = ctx.tools;
  const budget = conversationBudget(input.model, estimateToolTokens(input.tools));
  const fitted = fitConversation(ctx.conversations.get(STEP_CONVERSATION), budget);
  if (fitted.cut === 0) return ctx.conversations.input(STEP_CONVERSATION);
  ctx.conversations.set(STEP_WINDOW, fitted.messages);
  return ctx.conversations.input(STEP_WINDOW);
}

/** What the offered tools' names, descriptions and schemas take of the context (the built-ins' included). */
function estimateToolTokens(tools: ToolInfo[]): number {
  const BUILT_INS = 300; // finish_step and ask_user
  return (
    BUILT_INS +
    tools.reduce((sum, t) => sum + estimateTextTokens(t.name + t.description + JSON.stringify(t.parameters)), 0)
  );
}

/** Text that names an offered tool the way a tool call would (JSON `"name": "…"`, `<tool_call>`, `tool(`). */
function looksLikeToolCall(text: string, toolNames: string[]): boolean {
  if (/<tool_call>|"(tool_calls|function)"\s*:/.test(text)) return true;
  const named = /"name"\s*:/.test(text);
  return toolNames.some((name) => (named && text.includes(`"${name}"`)) || text.includes(`${name}(`));
}
