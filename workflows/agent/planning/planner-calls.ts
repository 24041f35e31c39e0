/**
 * The planner's calls: asks the planner for a plan — as JSON matching the plan's JSON Schema,
 * also while it may ask — answering its `ask_user` calls through interactions while asks remain,
 * and sending a correction naming the errors when its output breaks the plan rules or was cut at
 * its token limit. A rejected reply stays in the conversation only as a short note. At most 3
 * bad plans in a row; then, as a last resort, the latest of them that can be used is: a plan
 * whose only faults are in its graph (duplicate ids, unknown dependencies, cycles) is repaired,
 * a reply cut at its token limit keeps its complete steps — saying so in the timeline. When
 * none can, `PLAN_INVALID`.
 */
import { withModel } from '../../model/llm/model-stages';
import { patched } from '@temporalio/workflow';
import { workflowFailure } from '../../contract/failures';
import { llmCall } from '../../runtime/activity-proxies';
import { parseAskArgs } from '../../model/interactions/ask-schema';
import { toInteractionSpec } from '../../model/interactions/ask-user-tool';
import type { LlmToolCall } from '../../model/llm/llm-types';
import { salvageCutPlan } from '../../model/plan/check-plan';
import type { PlanCheck, Plan } from '../../model/plan/plan-types';
import { ASK_USER } from '../../model/tools/tool-types';
import { PLANNER } from '../../model/agent/agent-carry';
import type { AgentRun } from '../agent-run';
import { noteModel, noteStreaming } from '../../model/agent/agent-state';
import { cutReplyError, planCorrectionMessage, rejectedReplyNote } from '../../model/agent/prompts';
import { PATCHES } from '../../base/patches';
import { plannerModel } from './assess-task';

/** Bad plans in a row before the planner gives up. */
export const MAX_BAD_PLANS = 3;

function canAsk(run: AgentRun, purpose: 'plan' | 'replan'): boolean {
  const { mode, limits } = run.settings;
  return purpose === 'plan' && mode.ask && run.state.asks < limits.maxAsks;
}

/** Answers the planner's tool calls (only `ask_user` is offered) as tool messages. */
async function answerToolCalls(run: AgentRun, calls: LlmToolCall[], purpose: 'plan' | 'replan'): Promise<void> {
  for (const call of calls) {
    const reply = (content: string) =>
      run.conversations.append(PLANNER, { role: 'tool', toolCallId: call.id, content });
    if (call.name !== ASK_USER || !canAsk(run, purpose)) {
      reply(
        `error: ${call.name === ASK_USER ? 'no more questions are allowed; plan with what you know' : `unknown tool "${call.name}"; answer with the plan`}`,
      );
      continue;
    }
    const parsed = parseAskArgs(call.arguments);
    if (!parsed.ok) {
      reply(`error: invalid ask_user arguments:\n${parsed.errors.join('\n')}`);
      continue;
    }
    run.state.asks += 1;
    run.setPhase('awaiting_input');
    const answer = await run.desk.ask(toInteractionSpec(parsed.request));
    run.setPhase(purpose === 'plan' ? 'planning' : 'replanning');
    reply(JSON.stringify(answer));
  }
}

/** A rejected reply that can still be used as a last resort, and what was changed to use it. */
interface Fallback {
  plan: Plan;
  what: string[];
  /** Which of the bad replies in a row it was (1-based). */
  reply: number;
}

/**
 * What of a rejected reply could be used as a last resort: a plan whose only faults are in its
 * graph, repaired; a reply cut at its token limit, its complete steps (repaired too when
 * needed). `undefined`: nothing usable. Pure.
 */
function fallbackOf(
  checked: PlanCheck,
  reply: { content: string | null; cut: boolean },
  check: (content: string | null) => PlanCheck,
  strike: number,
): Fallback | undefined {
  const salvaged = reply.cut ? salvageCutPlan(reply.content, check) : checked;
  const usable = salvaged?.ok ? { plan: salvaged.plan, repairs: [] } : salvaged?.repaired;
  if (!usable) return undefined;
  const kept = usable.plan.steps.map((step) => step.id).join(', ');
  const what = [
    ...(reply.cut ? [`it was cut at its token limit; its complete steps were kept (${kept})`] : []),
    ...usable.repairs,
  ];
  return { plan: usable.plan, what, reply: strike };
}

/**
 * Calls the planner until `check` accepts its output.
 * @param check turns the reply's content into a plan (full plan, or a replan merge).
 */
export async function obtainPlan(
  run: AgentRun,
  purpose: 'plan' | 'replan',
  check: (content: string | null) => PlanCheck,
): Promise<Plan> {
  let fallback: Fallback | undefined;
  for (let strikes = 0; ;) {
    // Paused or over budget: no new model call (no await at all when free: replay stays the same).
    if (run.hold.held()) await run.hold.whenFree();
    const offerAsk = canAsk(run, purpose);
    const reply = await llmCall(`${purpose} r${run.state.revision + 1}`, {
      purpose,
      ownerId: run.agentId,
      ...run.conversations.input(PLANNER),
      toolNames: offerAsk ? [ASK_USER] : [],
      // JSON always, matching the plan's schema: questions come as ask_user calls beside it.
      json: true,
      schema: purpose,
      ...withModel(plannerModel(run)),
    });
    run.meter.add(reply.usage);
    noteModel(run.state, reply.model);
    noteStreaming(run.state, reply.streamed);
    for (const notice of reply.notices ?? []) run.event({ type: 'llm.notice', message: `${purpose}: ${notice}` });
    if (reply.toolCalls.length > 0) {
      run.conversations.append(PLANNER, { role: 'assistant', content: reply.content, toolCalls: reply.toolCalls });
      await answerToolCalls(run, reply.toolCalls, purpose);
      continue;
    }
    const checked = check(reply.content);
    if (checked.ok) {
      run.conversations.append(PLANNER, { role: 'assistant', content: reply.content });
      return checked.plan;
    }
    const cut = reply.finishReason === 'length';
    if (cut) {
      const tokens = reply.usage.completionTokens;
      run.event({ type: 'llm.cut', message: `${purpose}: the reply was cut at its token limit (${tokens} tokens)` });
    }
    const errors = cut ? [cutReplyError()] : checked.errors;
    run.conversations.append(PLANNER, { role: 'assistant', content: rejectedReplyNote(reply.content) });
    strikes += 1;
    run.event({ type: 'plan.rejected', message: errors.join('; ') });
    // The latest reply that could be used, should the planner never get it right.
    fallback = fallbackOf(checked, { content: reply.content, cut }, check, strikes) ?? fallback;
    if (strikes >= MAX_BAD_PLANS && fallback && patched(PATCHES.planRepair)) {
      const who = purpose === 'plan' ? 'planner' : 'replanner';
      run.event({
        type: 'plan.repaired',
        message: `the ${who} gave ${MAX_BAD_PLANS} unusable replies in a row; reply ${fallback.reply} was repaired: ${fallback.what.join('; ')}`,
      });
      return fallback.plan;
    }
    if (strikes >= MAX_BAD_PLANS) {
      throw workflowFailure(
        'PLAN_INVALID',
        `the planner returned ${MAX_BAD_PLANS} invalid plans in a row: ${errors.join('; ')}`,
      );
    }
    run.conversations.append(PLANNER, { role: 'user', content: planCorrectionMessage(errors) });
  }
}
