/**
 * `stepWorkflow` — one plan step as a child workflow running a ReAct loop (DESIGN §4.4):
 * model call with tools → tool calls as activities → results back as tool messages paired by
 * call id → until the model calls `finish_step`, or `maxStepRounds` is reached. Questions
 * (`ask_user`) go to the agent, which owns interactions, and come back by signal. Each round
 * reports usage and tool calls to the agent, so the agent's state is live.
 *
 * A long loop continues as new between rounds when the server suggests it (DESIGN §4.13):
 * nothing is in flight then, and the next run gets the round count and the conversation. The
 * agent, which started this step as a child, follows the chain to its last run's outcome.
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { llmCall } from '../activity-proxies';
import { addUsage } from '../usage';
import type { ToolCallRecord } from '../tools/tool-types';
import { stepSystemPrompt, stepTaskMessage } from './step-prompts';
import { Conversations } from '../conversation';
import { describeFailure } from '../describe-failure';
import { workflowFailure } from '../failures';
import type { TokenUsage } from '../llm-types';
import { parseStepAnswer } from '../message-payloads';
import { stepAnswerSignal, stepInteractionSignal, type StepAnswer, type StepProgress } from '../messages';
import { carryConversation } from '../rollover/carry-conversation';
import { offeredTools, runToolCall, type StepToolsContext } from './step-tools';
import { StepProgressReporter } from './step-progress';
import type { StepCarry, StepInput, StepOutcome } from './step-types';

const CONVERSATION = 'step';

export async function stepWorkflow(input: StepInput, carry?: StepCarry): Promise<StepOutcome> {
  const conversations = new Conversations().serve();
  const answers: Record<string, StepAnswer> = {};
  setHandler(stepAnswerSignal, (raw) => {
    // Only the agent should send this, but anyone with access to the namespace can: a bad
    // payload is logged and changes nothing (throwing here would wedge the step).
    const parsed = parseStepAnswer(raw);
    if (parsed.ok) answers[parsed.value.requestId] = parsed.value;
    else log.warn('stepAnswer signal rejected', { error: parsed.error });
  });
  const agent = getExternalWorkflowHandle(input.agentId);
  const progress = new StepProgressReporter(agent);
  const { step } = input;
  const toolNames = offeredTools(input);
  if (carry) conversations.append(CONVERSATION, ...carry.conversation);
  else
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
        throw workflowFailure('INTERACTION_EXPIRED', `${spec.kind} ${answer.interactionId} expired unanswered`);
      }
      return answer.answer;
    },
    addUsage: (extra) => addUsage(usage, extra),
  };

  const firstRound = (carry?.rounds ?? 0) + 1;
  for (let round = firstRound; round <= input.maxStepRounds; round++) {
    if (round > firstRound && workflowInfo().continueAsNewSuggested) {
      // A safe boundary: the last round is done, its report delivered, no handler running.
      await progress.flush();
      await condition(allHandlersFinished);
      const next: StepCarry = {
        rounds: round - 1,
        conversation: carryConversation(conversations.get(CONVERSATION)),
      };
      return await continueAsNew<typeof stepWorkflow>(input, next);
    }
    let reply;
    try {
      reply = await llmCall(`${step.id} · round ${round}`, {
        purpose: 'step',
        agentId: input.agentId,
        stepId: step.id,
        ...conversations.input(CONVERSATION),
        toolNames,
        ...(input.model ? { model: input.model } : {}),
      });
    } catch (err) {
      if (isCancellation(err)) throw err;
      const { code, message } = describeFailure(err);
      await progress.flush();
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
    const report: StepProgress = {
      stepId: step.id,
      round,
      model: reply.model,
      usage: { ...usage },
      toolCalls: records,
    };
    Object.assign(usage, { promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    if (finished !== undefined || round === input.maxStepRounds) {
      // The last report rides on the outcome: no signal round trip before the step ends.
      await progress.flush();
      if (finished !== undefined) return { status: 'completed', result: finished, rounds: round, progress: report };
      return roundsExhausted(input, report);
    }
    await progress.send(report);
  }
  return roundsExhausted(input); // only when a carried run starts beyond the limit
}

function roundsExhausted(input: StepInput, progress?: StepProgress): StepOutcome {
  return {
    status: 'failed',
    code: 'STEP_ROUNDS_EXHAUSTED',
    error: `step ${input.step.id} used all ${input.maxStepRounds} rounds without calling finish_step`,
    rounds: input.maxStepRounds,
    ...(progress ? { progress } : {}),
  };
}
