/**
 * `stepWorkflow` — one plan step as a child workflow running a ReAct loop: model call with
 * tools → tool calls as activities → results back as tool messages paired by call id → until
 * the model calls `finish_step`, or `maxStepRounds` is reached. Questions (`ask_user`) and
 * approvals go to the agent, which owns interactions, and come back by signal. Each round
 * reports usage and tool calls to the agent, so the agent's state is live.
 *
 * A long loop continues as new between rounds when the server suggests it: nothing is in
 * flight then, and the next run gets the round count and the conversation. The agent, which
 * started this step as a child, follows the chain to its last run's outcome. The input and the
 * carry are versioned contracts between releases: each run reads them through
 * step-migration.ts first.
 *
 * Cancelled, a step reports what it had before it closes (see below).
 */
import {
  allHandlersFinished,
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  patched,
  workflowInfo,
} from '@temporalio/workflow';
import { Conversations } from '../runtime/conversation';
import type { StepProgress } from '../contract/messages';
import { carryConversation } from '../model/rollover/carry-conversation';
import { AgentLink } from './agent-link';
import { LoopGuards } from './loop-guards';
import { cancelledReport } from './partial-result';
import { deliver } from './deliver';
import { verifyStep } from './verify-step';
import { MAX_SEND_BACKS, sendBackMessage } from '../model/step/verify-reply';
import { RoundLedger } from '../model/step/round-ledger';
import { stepSystemPrompt, stepTaskMessage } from '../model/step/step-prompts';
import { runRound, STEP_CONVERSATION, type RoundContext, type RoundEnd } from './step-round';
import { offeredTools } from './step-tools';
import { StepTranscript } from './step-transcript';
import { STEP_CARRY_VERSION, type StepCarry, type StepInput, type StepOutcome } from './step-types';
import { readStepCarry, readStepInput, type ReceivedStepCarry, type ReceivedStepInput } from './step-migration';
import { PATCHES } from '../base/patches';
import { IncomingMessages } from './step-incoming';

export async function stepWorkflow(received: ReceivedStepInput, carried?: ReceivedStepCarry): Promise<StepOutcome> {
  // Input and carry of any release, read as the current versions (an unreadable one fails the task, not the step).
  const input = readStepInput(received);
  const carry = carried === undefined ? undefined : readStepCarry(carried);
  const conversations = new Conversations().serve();
  const ledger = new RoundLedger();
  const start = { held: carry?.held === true, left: carry?.left ?? input.budgetLeft };
  const link = new AgentLink(input.agentId, input.step.id, input.metered === true, ledger, start).serve();
  const { step } = input;
  const toolNames = offeredTools(input);
  if (carry) conversations.append(STEP_CONVERSATION, ...carry.conversation);
  else
    conversations.append(
      STEP_CONVERSATION,
      {
        role: 'system',
        content: stepSystemPrompt(input.tools, input.canAsk, input.systemPrompt, input.node, input.prompts),
      },
      { role: 'user', content: stepTaskMessage(input.task, step, input.dependencies, input.prompts, input.files) },
    );
  const guards = new LoopGuards(input.guards, carry?.guards);
  const tools = { input, askAgent: link.ask.bind(link), ledger, link, guards };
  const transcript = new StepTranscript(step.id, carry?.transcript).serve();
  const ctx: RoundContext = { tools, conversations, toolNames, guards, transcript };
  const loop = { round: carry?.rounds ?? 0, sentBack: carry?.sentBack ?? 0 };
  const incoming = new IncomingMessages([...((carry ?? input).incoming ?? [])]).serve();
  try {
    return await runLoop(ctx, link, loop, carry, incoming);
  } catch (err) {
    // Cancelled by the agent (its deadline, a budget stop, its own cancellation, another step's
    // failure): the cancellation reached whatever the step awaited — a model or tool call, a
    // nested agent, the agent's answer. Before it closes as cancelled, the step sends one last
    // report: the usage of its unfinished round and its partial result. The agent waits for its
    // cancelled children to close, and this signal is delivered (awaited, out of the cancelled
    // scope) before the step closes, so the agent has it before it learns the step ended: the
    // step still closes CANCELLED, and nothing needs the agent to ask first (a workflow cannot
    // query another one). Runs recorded before this close at once, as they did (patch).
    if (!isCancellation(err) || !CancellationScope.current().consideredCancelled) throw err;
    const last = cancelledReport(input, conversations.get(STEP_CONVERSATION), loop.round, ledger.peek());
    if (last && patched(PATCHES.stepPartialResult)) await CancellationScope.nonCancellable(() => link.reportLast(last));
    throw err;
  }
}

/** The rounds, from the first this run does; `loop.round` says which one is under way. */
async function runLoop(
  ctx: RoundContext,
  link: AgentLink,
  loop: { round: number; sentBack: number },
  carry: StepCarry | undefined,
  incoming: IncomingMessages,
): Promise<StepOutcome> {
  const input = ctx.tools.input;
  const { conversations, guards } = ctx;
  const firstRound = (carry?.rounds ?? 0) + 1;
  for (let round = firstRound; round <= input.maxStepRounds; round++) {
    if (round > firstRound && workflowInfo().continueAsNewSuggested) {
      // A safe boundary: the last round is done, its report delivered, no handler running.
      await link.flush();
      if (link.mustWait() && !link.held) await link.whenFree(); // the agent's answer to that report
      await condition(allHandlersFinished);
      const next: StepCarry = {
        version: STEP_CARRY_VERSION,
        rounds: round - 1,
        conversation: carryConversation(conversations.get(STEP_CONVERSATION)),
        ...(link.held ? { held: true } : {}),
        guards: guards.state,
        ...(link.left ? { left: link.left } : {}),
        transcript: ctx.transcript.carry,
        ...(loop.sentBack ? { sentBack: loop.sentBack } : {}),
        ...incoming.carry(), // heard by the next run's first call
      };
      return await continueAsNew<typeof stepWorkflow>(input, next);
    }
    loop.round = round;
    const heard = incoming.deliver(conversations, STEP_CONVERSATION); // messages that came since the last call
    const end = withHeard(await runRound(ctx, round), heard);
    if (end.kind === 'failed') {
      await link.flush();
      const progress = end.report ? { progress: end.report } : {};
      return { status: 'failed', code: end.code, error: end.error, rounds: round, ...progress };
    }
    // A message that came during the finishing call: one more round hears it (the answer may change).
    const unheard = end.finished !== undefined && round < input.maxStepRounds && incoming.waiting();
    const checked =
      end.finished !== undefined && input.verify && !unheard ? await checkResult(ctx, end, round, loop) : undefined;
    if (unheard || checked === 'sent-back') {
      await link.report(end.report);
      continue;
    }
    if (end.finished !== undefined || round === input.maxStepRounds) {
      // The last report rides on the outcome: no signal round trip before the step ends.
      await link.flush();
      if (end.finished === undefined)
        return input.onRoundsExhausted === 'deliver'
          ? deliver(ctx, link, round, end.report)
          : roundsExhausted(input, end.report);
      const verdict = checked ? { verified: checked.verified, sentBack: loop.sentBack } : {};
      return {
        status: 'completed',
        result: end.finished,
        ...end.extras,
        ...verdict,
        rounds: round,
        progress: end.report,
      };
    }
    await link.report(end.report);
  }
  return roundsExhausted(input); // only when a carried run starts beyond the limit
}

/** A round's end whose report names the incoming messages its call heard first (`heard`), if any. */
function withHeard(end: RoundEnd, heard: string[]): RoundEnd {
  if (heard.length === 0 || !end.report) return end;
  return { ...end, report: { ...end.report, heard } };
}

/**
 * `mode.verifySteps`: the checker judges a finished result. Not ok, with send-backs and rounds
 * left: the model hears the feedback and the step goes on (`sent-back`); else the result stands.
 */
async function checkResult(
  ctx: RoundContext,
  end: { finished?: string; report: StepProgress },
  round: number,
  loop: { sentBack: number },
): Promise<'sent-back' | { verified: boolean }> {
  const verdict = await verifyStep(ctx, end.finished ?? '', end.report);
  if (verdict?.ok) return { verified: true };
  if (!verdict || loop.sentBack >= MAX_SEND_BACKS || round >= ctx.tools.input.maxStepRounds) return { verified: false };
  loop.sentBack += 1;
  ctx.conversations.append(STEP_CONVERSATION, { role: 'user', content: sendBackMessage(verdict.feedback) });
  return 'sent-back';
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
