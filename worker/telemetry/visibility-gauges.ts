/**
 * The level metrics — running agents by phase, open interactions by kind and the age of the
 * oldest — read every few seconds from visibility (agents by phase) and from the state of the
 * agents visibility says are waiting (interactions). Levels are read, not counted: visibility
 * and the agents' own state stay right across worker restarts, where a running count would drift.
 *
 * Every worker with a metrics endpoint reports its task queue's agents, so several workers report
 * the same levels: aggregate them with `max`, not `sum` (docs/operations.md#observability). At most
 * {@link WAITING_AGENTS_READ} waiting agents are read per poll.
 */
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { TERMINAL_PHASES, AGENT_PHASES } from '../../workflows/model/state/agent-phases';
import { interactionSpecSchema } from '../../workflows/model/interactions/interaction-schema';
import { stateQuery } from '../../workflows/contract/messages';
import type { CairnMetrics } from './cairn-metrics';
import { AGENT_WORKFLOW_TYPE } from '../../workflows/model/agent/agent-contract';

/** The most waiting agents one poll reads the state of. */
export const WAITING_AGENTS_READ = 200;

/** The phases of a running agent (terminal ones are not levels). */
const LIVE_PHASES = AGENT_PHASES.filter((p) => !(TERMINAL_PHASES as readonly string[]).includes(p));

/** Every interaction kind, so each has a series (0 when none is open) and alerts see it drop. */
const KINDS: string[] = interactionSpecSchema.options.map((o) => o.shape.kind.value);

/** The part of the state this reads. */
const waitingStateSchema = z.object({
  interactions: z.array(z.object({ kind: z.string(), status: z.string(), createdAt: z.number() })),
});

/** A visibility string literal. */
function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export interface VisibilityGaugesOptions {
  client: Client;
  taskQueue: string;
  metrics: CairnMetrics;
  intervalMs: number;
  /** Called with a poll's failure (the next poll tries again). */
  onError: (err: unknown) => void;
}

/** Reads the levels once and sets the gauges. */
export async function readLevels({
  client,
  taskQueue,
  metrics,
}: Pick<VisibilityGaugesOptions, 'client' | 'taskQueue' | 'metrics'>): Promise<void> {
  const running = `WorkflowType = '${AGENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running' AND TaskQueue = ${literal(taskQueue)}`;
  const counts = await Promise.all(
    LIVE_PHASES.map(async (phase) => {
      const { count } = await client.workflow.count(`${running} AND AgentPhase = ${literal(phase)}`);
      return [phase, count] as const;
    }),
  );
  for (const [phase, count] of counts) metrics.agents.set(count, { phase });

  const open = new Map<string, { count: number; oldestMs: number }>(KINDS.map((k) => [k, { count: 0, oldestMs: 0 }]));
  const now = Date.now();
  let read = 0;
  for await (const wf of client.workflow.list({ query: `${running} AND AgentAwaitingInput = true` })) {
    if (read++ >= WAITING_AGENTS_READ) break;
    // Only the interactions matter: skip the timeline.
    const raw = await client.workflow
      .getHandle(wf.workflowId, wf.runId)
      .query(stateQuery, { afterSeq: Number.MAX_SAFE_INTEGER })
      .catch(() => undefined); // ended or unreachable since it was listed: the next poll sees it
    const state = waitingStateSchema.safeParse(raw);
    if (!state.success) continue;
    for (const i of state.data.interactions) {
      if (i.status !== 'open') continue;
      const level = open.get(i.kind) ?? { count: 0, oldestMs: 0 };
      open.set(i.kind, { count: level.count + 1, oldestMs: Math.max(level.oldestMs, now - i.createdAt) });
    }
  }
  for (const [kind, { count, oldestMs }] of open) {
    metrics.openInteractions.set(count, { kind });
    metrics.oldestInteractionAge.set(oldestMs / 1000, { kind });
  }
}

/** Polls the levels every `intervalMs` (the first at once) until stopped. */
export function startVisibilityGauges(options: VisibilityGaugesOptions): { stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  const poll = () => {
    // A slow visibility store must not pile polls up: skip a tick while one is in flight.
    if (running) return;
    running = readLevels(options)
      .catch(options.onError)
      .finally(() => (running = undefined));
  };
  poll();
  const timer = setInterval(poll, options.intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
