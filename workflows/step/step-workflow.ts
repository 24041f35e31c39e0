/**
 * `stepWorkflow` — one plan step as a child workflow running a ReAct loop (DESIGN §4.4):
 * model call with tools → tool calls as activities → results back as tool messages paired by
 * call id → until the model calls `finish_step`, or `maxStepRounds` is reached. Questions
 * (`ask_user`) go to the agent, which owns interactions, and come back by signal. Each round
 * reports usage and tool calls to the agent, so the agent's state is live.
 */
import {
  ApplicationFailure,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  setHandler,
} from '@temporalio/workflow';
import { llmCall } from '../activity-proxies';
import { addUsage, type ToolCallRecord } from '../agent/agent-state';
import { stepSystemPrompt, stepTaskMessage } from '../agent/prompts';
import { Conversations } from '../conversation';
import { describeFailure } from '../describe-failure';
import type { TokenUsage } from '../llm-types';
import { stepAnswerSignal, stepInteractionSignal, stepProgressSignal, type StepAnswer } from '../messages';
import { offeredTools, runToolCall, type StepToolsContext } from './step-tools';
import type { StepInput, StepOutcome } from './step-types';

const CONVERSATION = 'step';

export async function stepWorkflow(input: StepInput): Promise<StepOutcome> {
  const conversations = new Conversations().serve();
  const answers: Record<string, StepAnswer> = {};
  setHandler(stepAnswerSignal, (answer) => void (answers[answer.requestId] = answer));
  const agent = getExternalWorkflowHandle(input.agentId);
  const { step } = input;
  const toolNames = offeredTools(input);
  conversations.append(
    CONVERSATION,
    { role: 'system', content: stepSystemPrompt(input.tools, input.canAsk, input.systemPrompt) },
    { role: 'user', content: stepTaskMessage(input.task, step, input.dependencies) },
  );

  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const tools: StepToolsContext = {
    input,
    async askAgent(requestId, spec) {
      await agent.signal(stepInteractionSignal, { stepId: step.id, requestId, spec });
      await condition(() => answers[requestId] !== undefined);
      const answer = answers[requestId];
      if (!answer) throw new Error('unreachable');
      if (answer.expired === 'fail') {
        throw ApplicationFailure.nonRetryable(
          `${spec.kind} ${answer.interactionId} expired unanswered`,
          'INTERACTION_EXPIRED',
        );
      }
      return answer.answer;
    },
    addUsage: (extra) => addUsage(usage, extra),
  };

  for (let round = 1; round <= input.maxStepRounds; round++) {
    let reply;
    try {
      reply = await llmCall(`${step.id} · round ${round}`, {
        purpose: 'step',
        agentId: input.agentId,
        stepId: step.id,
        conversation: conversations.ref(CONVERSATION),
        toolNames,
        ...(input.model ? { model: input.model } : {}),
      });
    } catch (err) {
      if (isCancellation(err)) throw err;
      const { code, message } = describeFailure(err);
      return { status: 'failed', code, error: message, rounds: round };
    }
    conversations.append(CONVERSATION, {
      role: 'assistant',
      content: reply.content,
      ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}),
    });
    const records: ToolCallRecord[] = [];
    let finished: string | undefined;
    for (const call of reply.toolCalls) {
      const result = await runToolCall(tools, call);
      conversations.append(CONVERSATION, { role: 'tool', toolCallId: call.id, content: result.content });
      if (result.record) records.push(result.record);
      finished ??= result.finished;
    }
    // A reply with text and no tool calls is taken as the result: many models answer that way.
    if (reply.toolCalls.length === 0 && reply.content?.trim()) finished = reply.content.trim();
    addUsage(usage, reply.usage);
    await agent.signal(stepProgressSignal, { stepId: step.id, round, model: reply.model, usage, toolCalls: records });
    Object.assign(usage, { promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    if (finished !== undefined) return { status: 'completed', result: finished, rounds: round };
  }
  return {
    status: 'failed',
    code: 'STEP_ROUNDS_EXHAUSTED',
    error: `step ${step.id} used all ${input.maxStepRounds} rounds without calling finish_step`,
    rounds: input.maxStepRounds,
  };
}
