/**
 * What the chaos agents do, and so what they must have written. The scripted LLM plays every
 * role from the request alone (any number of agents share it, and a retried call gets a fitting
 * answer): the planner returns a three-step plan (s1 and s2 in parallel, s3 after both); each
 * step writes with `chaos_append` and the built-in `write_file` in its first round, appends
 * once more in its second and finishes in its third. Every intended write is named by agent,
 * step and round, so the audit knows exactly what should be on disk.
 */
import { reply, type RecordedRequest, type ReplyFunction } from '../testkit/fake-llm';
import type { Plan } from '../workflows/model/plan/plan-types';
import type { Prng } from './prng';

/** The step ids of every chaos agent's plan. */
export const STEP_IDS = ['s1', 's2', 's3'] as const;

/** The plan every chaos agent gets: two parallel steps, then one that depends on both. */
export const CHAOS_PLAN: Plan = {
  task: 'chaos task',
  language: 'en',
  steps: [
    { id: 's1', title: 'Write one', description: 'Write the first records', depends_on: [] },
    { id: 's2', title: 'Write two', description: 'Write the second records', depends_on: [] },
    { id: 's3', title: 'Write three', description: 'Write the closing records', depends_on: ['s1', 's2'] },
  ],
  replan: [],
};

/** The tools a chaos agent may use; both are write tools the workers auto-approve. */
export const CHAOS_TOOLS = ['chaos_append', 'write_file'];

/** The file the agent's `chaos_append` calls append to. */
export const logFileOf = (agentId: string): string => `${agentId}.log`;

/** The line a step appends in round `round` (1 or 2). */
export const lineOf = (agentId: string, stepId: string, round: number): string => `${agentId} ${stepId} r${round}`;

/** The file a step writes with `write_file`, relative to the workspace. */
export const fileOf = (agentId: string, stepId: string): string => `files/${agentId}/${stepId}.txt`;

/** The content of that file. */
export const contentOf = (agentId: string, stepId: string): string => `${agentId} ${stepId}\n`;

/** Every write an agent must have made exactly once. */
export function intendedWrites(agentId: string): { lines: string[]; files: { path: string; content: string }[] } {
  return {
    lines: STEP_IDS.flatMap((s) => [lineOf(agentId, s, 1), lineOf(agentId, s, 2)]),
    files: STEP_IDS.map((s) => ({ path: fileOf(agentId, s), content: contentOf(agentId, s) })),
  };
}

/** How many model turns the step already had: the assistant messages in its conversation. */
function roundsDone(request: RecordedRequest): number {
  return request.body.messages.filter((m) => m.role === 'assistant').length;
}

/**
 * The reply function: planner, steps and summary, each answered after a latency drawn from
 * `latency` (milliseconds, inclusive), so kills land while calls are in flight.
 */
export function chaosScript(prng: Prng, latency: [number, number] = [100, 300]): ReplyFunction {
  return (request) => {
    const extra = { delayMs: prng.between(...latency) };
    const agentId = request.headers['x-cairn-agent'] ?? '?';
    switch (request.headers['x-cairn-purpose']) {
      case 'plan':
        return reply.json(CHAOS_PLAN, extra);
      case 'step': {
        const stepId = request.headers['x-cairn-step'] ?? '?';
        const done = roundsDone(request);
        const append = (round: number) => ({
          name: 'chaos_append',
          arguments: { file: logFileOf(agentId), line: lineOf(agentId, stepId, round) },
        });
        if (done === 0) {
          const write = {
            name: 'write_file',
            arguments: { path: fileOf(agentId, stepId), content: contentOf(agentId, stepId) },
          };
          return reply.toolCalls([append(1), write], extra);
        }
        if (done === 1) return reply.toolCalls([append(2)], extra);
        return reply.toolCalls([{ name: 'finish_step', arguments: { result: `${stepId} wrote its records` } }], extra);
      }
      case 'summary':
        return reply.text('Every record is written.', extra);
      default:
        return undefined; // anything else is unscripted: the fake fails loudly
    }
  };
}

/** Tool results the steps saw as errors (a failed write), as `<agent> <tool call id>: <text>`. */
export function toolErrors(requests: RecordedRequest[]): string[] {
  const seen = new Map<string, string>();
  for (const request of requests) {
    const agentId = request.headers['x-cairn-agent'] ?? '?';
    for (const message of request.body.messages) {
      if (message.role !== 'tool' || typeof message.content !== 'string') continue;
      if (message.content.startsWith('error:')) {
        seen.set(`${agentId} ${message.tool_call_id}`, message.content.slice(0, 200));
      }
    }
  }
  return [...seen].map(([where, text]) => `${where}: ${text}`);
}
