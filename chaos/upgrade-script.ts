/**
 * What the agents of the rolling-upgrade scenarios do: the chaos agents' script
 * (chaos/agent-script.ts: three steps that write, s3 after s1 and s2), with a part per phase the
 * agent is to be caught in, read from its id (`<lab>-<part>-NN`): `ask` agents' planner first asks
 * a question; `react` agents' step calls take seconds, so their steps are mid-loop when the new
 * version is promoted. The other parts differ only by their input (plan check, expiry) and by
 * which approvals the scenario holds back.
 */
import { reply, type ReplyFunction } from '../testkit/fake-llm';
import type { AgentInput } from '../workflows/model/agent/agent-input';
import { CHAOS_TOOLS, chaosScript } from './agent-script';
import type { Prng } from './prng';

/** The parts of the scenario, by the phase their agents are in when version 2 is promoted. */
export const PARTS = ['react', 'ask', 'check', 'approval', 'expiry', 'late'] as const;
export type Part = (typeof PARTS)[number];

/** How long a `react` agent's step model calls take: long enough to be mid-loop at promotion. */
const SLOW_STEP_MS: [number, number] = [2_500, 3_500];

/** When an `expiry` agent's plan check expires (then the plan is taken as is). */
export const EXPIRY_AFTER_MS = 15_000;

/** The part an agent id belongs to. */
export function partOf(agentId: string): Part | undefined {
  return PARTS.find((p) => agentId.includes(`-${p}-`));
}

/** The agent input for `part`. */
export function inputFor(agentId: string, part: Part): AgentInput {
  const task = `Chaos agent ${agentId}: write the records`;
  const base = { task, tools: CHAOS_TOOLS };
  switch (part) {
    case 'ask':
      return { ...base, mode: { ask: true, confirmPlan: true } };
    case 'check':
      return { ...base, mode: { confirmPlan: true } };
    case 'expiry':
      return {
        ...base,
        mode: { confirmPlan: true },
        interactionTimeout: { afterMs: EXPIRY_AFTER_MS, onExpiry: 'default' },
      };
    default:
      return base;
  }
}

/** The reply function: the chaos script, with the `ask` and `react` parts' differences. */
export function upgradeScript(prng: Prng): ReplyFunction {
  const base = chaosScript(prng);
  return (request) => {
    const agentId = request.headers['x-cairn-agent'] ?? '?';
    const part = partOf(agentId);
    const purpose = request.headers['x-cairn-purpose'];
    const answered = request.body.messages.some((m) => m.role === 'tool');
    if (purpose === 'plan' && part === 'ask' && !answered) {
      const question = { kind: 'query', prompt: 'Which records should I write?' };
      return reply.toolCalls([{ name: 'ask_user', arguments: question }], { delayMs: 100 });
    }
    const scripted = base(request);
    if (scripted && purpose === 'step' && part === 'react')
      return { ...scripted, delayMs: prng.between(...SLOW_STEP_MS) };
    return scripted;
  };
}
