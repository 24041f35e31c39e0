/**
 * What the real-model suite claims to exercise, and whether this run did: a suite whose checks
 * all pass because nothing happened proves nothing. Each mechanism names the evidence that it
 * ran; the verdict is PASS only when there are no violations and every mechanism was seen,
 * INCONCLUSIVE when nothing broke but something was never exercised, FAIL otherwise. Pure.
 */
import type { AgentEvidence } from './checks';
import type { Exchange } from './recording-proxy';

/** One mechanism the suite claims to check, and what this run showed of it. */
export interface Mechanism {
  name: string;
  seen: boolean;
  detail: string;
}

/** How the run ends. */
export type Verdict = 'PASS' | 'FAIL' | 'INCONCLUSIVE';

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

/** The mechanisms and their evidence, over every agent of the run and every exchange the proxy saw. */
export function mechanisms(results: AgentEvidence[], exchanges: Exchange[]): Mechanism[] {
  const toolRuns = sum(results.flatMap((r) => r.repeated.map((c) => c.completed)));
  const asked = sum(results.map((r) => r.run.approvals.length));
  const approved = sum(results.map((r) => r.run.answered['tool.approval'] ?? 0));
  const structured = exchanges.filter(
    (e) => (e.purpose === 'plan' || e.purpose === 'replan') && e.responseFormat === 'json_schema' && e.status === 200,
  ).length;
  const parsedPlans = results.filter((r) => r.run.state?.events.some((e) => e.type === 'plan.created')).length;
  const planChecks = sum(results.map((r) => r.run.answered['plan.check'] ?? 0));
  const carried = exchanges.filter((e) => e.conversationToolCalls > 0).length;
  const streamed = exchanges.filter((e) => e.streamed === true && (e.chunks ?? 0) > 1).length;
  const deltas = sum(results.map((r) => r.deltas));
  return [
    { name: 'tool calls ran', seen: toolRuns > 0, detail: `${toolRuns} tool runs completed` },
    {
      name: 'an approval was asked and answered',
      seen: asked > 0 && approved > 0,
      detail: `${asked} asked, ${approved} answered`,
    },
    {
      name: 'a structured-output plan was requested and parsed',
      seen: structured > 0 && parsedPlans > 0,
      detail: `${structured} json_schema plan replies, ${parsedPlans} agents with a plan created`,
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
