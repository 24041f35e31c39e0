/**
 * One round of a step's ReAct loop: the model call with the step's tools, then each tool call
 * in order, its result appended as a tool message paired by call id. The round ends with the
 * step's result (`finish_step`, or a plain text reply — many models answer that way), or with
 * nothing yet; a failed model call ends the step.
 */
import { isCancellation } from '@temporalio/workflow';
import { llmCall } from '../activity-proxies';
import type { Conversations } from '../conversation';
import { describeFailure } from '../describe-failure';
import type { TokenUsage } from '../llm-types';
import type { StepProgress } from '../messages';
import type { ToolCallRecord } from '../tools/tool-types';
import { addUsage, zeroUsage } from '../usage';
import { runToolCall, type StepToolsContext } from './step-tools';

/** The key of the step's conversation. */
export const STEP_CONVERSATION = 'step';

/** What a round needs: the step's tools context, its conversation and the offered tool names. */
export interface RoundContext {
  tools: StepToolsContext;
  conversations: Conversations;
  toolNames: string[];
  /** Usage of sub-calls (model, sub_agent) since the last report; reset by each round. */
  usage: TokenUsage;
}

/** How a round ended: its report and, when the step is done, the result. */
export type RoundEnd =
  { kind: 'round'; report: StepProgress; finished?: string } | { kind: 'failed'; code: string; error: string };

export async function runRound(ctx: RoundContext, round: number): Promise<RoundEnd> {
  const { input } = ctx.tools;
  const { step } = input;
  let reply;
  try {
    reply = await llmCall(`${step.id} · round ${round}`, {
      purpose: 'step',
      agentId: input.agentId,
      stepId: step.id,
      ...ctx.conversations.input(STEP_CONVERSATION),
      toolNames: ctx.toolNames,
      ...(input.model ? { model: input.model } : {}),
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    const { code, message } = describeFailure(err);
    return { kind: 'failed', code, error: message };
  }
  ctx.conversations.append(STEP_CONVERSATION, {
    role: 'assistant',
    content: reply.content,
    ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}),
  });
  const records: ToolCallRecord[] = [];
  let finished: string | undefined;
  for (const call of reply.toolCalls) {
    const result = await runToolCall(ctx.tools, call);
    ctx.conversations.append(STEP_CONVERSATION, { role: 'tool', toolCallId: call.id, content: result.content });
    if (result.record) records.push(result.record);
    finished ??= result.finished;
  }
  if (reply.toolCalls.length === 0 && reply.content?.trim()) finished = reply.content.trim();
  addUsage(ctx.usage, reply.usage);
  const report: StepProgress = {
    stepId: step.id,
    round,
    model: reply.model,
    usage: { ...ctx.usage },
    toolCalls: records,
  };
  Object.assign(ctx.usage, zeroUsage());
  return { kind: 'round', report, ...(finished !== undefined ? { finished } : {}) };
}
