/**
 * What the real-model suite claims to exercise, and whether this run did: a suite whose checks
 * all pass because nothing happened proves nothing — five agents that all failed, a ReAct
 * agent's automatic one-step plan, a tool run that ended in the tool's error are no evidence. Each mechanism names the evidence that it
 * ran; the verdict is PASS only when there are no violations and every mechanism was seen,
 * INCONCLUSIVE when nothing broke but something was never exercised, FAIL otherwise. Pure.
 */
import { plans } from './agents';
import type { AgentEvidence } from './checks';
import type { Exchange } from './recording-proxy';
import { loopGuardNotes } from './loop-guard-notes';

/** One mechanism the suite claims to check, and what this run showed of it. */
export interface Mechanism {
  name: string;
  seen: boolean;
  detail: string;
}

/** How the run ends. */
export type Verdict = 'PASS' | 'FAIL' | 'INCONCLUSIVE';

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

/**
 * Whether a planning agent's plan came from a planner's reply, parsed: a `plan.created` (or
 * `plan.revised`) that does not follow the planner's last resort (`plan.repaired`, a plan
 * rebuilt from an unusable reply). An agent in ReAct mode gets its one-step plan without any
 * planner call, so its `plan.created` is no such evidence.
 */
export function plannedFromReply({ agent, run }: Pick<AgentEvidence, 'agent' | 'run'>): boolean {
  if (!plans(agent)) return false;
  const events = run.state?.events ?? [];
  return events.some(
    (e, i) => (e.type === 'plan.created' || e.type === 'plan.revised') && events[i - 1]?.type !== 'plan.repaired',
  );
}

/** Whether a planner call of this agent asked for a JSON-schema reply and was answered. */
const askedForSchema = ({ exchanges }: AgentEvidence): boolean =>
  exchanges.some(
    (e) => (e.purpose === 'plan' || e.purpose === 'replan') && e.responseFormat === 'json_schema' && e.status === 200,
  );

/** The mechanisms and their evidence, over every agent of the run and every exchange the proxy saw. */
export function mechanisms(results: AgentEvidence[], exchanges: Exchange[]): Mechanism[] {
  const completedAgents = results.filter((r) => r.run.outcome === 'completed').length;
  const toolRuns = sum(results.flatMap((r) => r.repeated.map((c) => c.completed)));
  const succeeded = sum(results.flatMap((r) => r.repeated.map((c) => c.succeeded)));
  const asked = sum(results.map((r) => r.run.approvals.length));
  const approved = sum(results.map((r) => r.run.answered['tool.approval'] ?? 0));
  const structured = exchanges.filter(
    (e) => (e.purpose === 'plan' || e.purpose === 'replan') && e.responseFormat === 'json_schema' && e.status === 200,
  ).length;
  const repaired = results.filter((r) => plans(r.agent) && r.run.state?.events.some((e) => e.type === 'plan.repaired'));
  const parsed = results.filter((r) => askedForSchema(r) && plannedFromReply(r)).length;
  const planChecks = sum(results.map((r) => r.run.answered['plan.check'] ?? 0));
  const carried = exchanges.filter((e) => e.conversationToolCalls > 0).length;
  const streamed = exchanges.filter((e) => e.streamed === true && (e.chunks ?? 0) > 1).length;
  const deltas = sum(results.map((r) => r.deltas));
  const guards = results.flatMap((r) => loopGuardNotes(r.run));
  return [
    {
      name: 'an agent completed',
      seen: completedAgents > 0,
      detail: `${completedAgents} of ${results.length} agent runs completed`,
    },
    {
      name: 'tool calls ran and did their work',
      seen: succeeded > 0,
      detail: `${succeeded} tool runs completed with an ok outcome (${toolRuns - succeeded} more ended in the tool's error)`,
    },
    {
      name: 'an approval was asked and answered',
      seen: asked > 0 && approved > 0,
      detail: `${asked} asked, ${approved} answered`,
    },
    {
      name: "a planner's structured-output reply was parsed into a plan",
      seen: parsed > 0,
      detail:
        `${structured} json_schema plan replies; ${parsed} planning agents with a plan parsed from one, ` +
        `${repaired.length} with a plan repaired by the planner's last resort`,
    },
    { name: 'a plan was checked', seen: planChecks > 0, detail: `${planChecks} plan checks answered` },
    {
      name: 'conversations carried tool calls back to the model',
      seen: carried > 0,
      detail: `${carried} requests with earlier tool calls (each checked for a clean conversation)`,
    },
    {
      name: 'model calls streamed and their deltas reached a live viewer',
      seen: streamed > 0 && deltas > 0,
      detail: `${streamed} answers streamed in chunks, ${deltas} deltas received by the agents' live viewers`,
    },
    {
      name: 'a loop guard acted',
      seen: guards.length > 0,
      detail: guards.length > 0 ? `${guards.length} times, first: ${guards[0]?.slice(0, 100)}` : 'never',
    },
  ];
}

/** PASS, FAIL or INCONCLUSIVE, from the violations, the mechanisms and whether the model server died. */
export function verdict(violations: number, seen: Mechanism[], serverDied: boolean): Verdict {
  if (violations > 0 || serverDied) return 'FAIL';
  return seen.every((m) => m.seen) ? 'PASS' : 'INCONCLUSIVE';
}

/** The mechanisms as report lines. */
export function mechanismLines(seen: Mechanism[]): string[] {
  return seen.map((m) => `  ${m.seen ? 'seen    ' : 'NOT SEEN'}  ${m.name}: ${m.detail}`);
}
