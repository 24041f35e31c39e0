/**
 * Follows one message of a thread until there is something to tell its sender: the turn has
 * ended (a chat reply, a task turn's answer or failure, a steered or rejected message), or a
 * person is waiting to be asked — the turn's agent (or, for a queued message, the running turn's
 * agent it waits behind) has open interactions — or the thread has closed under it. Polls the thread query and the agent's state;
 * used by the OpenAI-compatible front door and `cairn chat`.
 */
import type { AgentClient } from '../agents/agent-client';
import { ClientError } from '../client-error';
import type { ThreadClient } from './thread-client';
import { pause } from '../agents/follow-timeline';
import { turnStatusSchema, type Turn, type TurnStatus } from '../../workflows/contract/thread-contract';
import type { Interaction } from '../../workflows/model/interactions/interaction-types';

/** The calls the follower makes. */
export interface TurnPorts {
  /** `message` reads a turn the thread's page of newest turns has left out (when given). */
  threads: Pick<ThreadClient, 'get'> & Partial<Pick<ThreadClient, 'message'>>;
  agents: Pick<AgentClient, 'state'>;
}

/** The statuses after which a turn has nothing more to say to its sender. */
const SETTLED: ReadonlySet<TurnStatus> = new Set(turnStatusSchema.exclude(['routing', 'queued', 'running']).options);

/** Whether a turn has nothing more to say. */
export const turnSettled = (turn: Turn): boolean => SETTLED.has(turn.status);

/**
 * Why following stopped: the turn settled, a person is asked, the thread closed with the turn
 * unsettled (cancelled, terminated, failed: it never will settle), or the caller went away.
 */
export type TurnOutcome =
  | { kind: 'settled'; turn: Turn }
  | { kind: 'closed'; turn: Turn; reason: string }
  | { kind: 'waiting'; turn: Turn; agentId: string; interactions: Interaction[] }
  | { kind: 'aborted'; turn?: Turn };

/** How the turn moves, as followers are told (each change once). */
export interface TurnProgress {
  status: TurnStatus;
  agentId?: string;
}

export interface FollowTurnOptions {
  /** Poll interval (ms) while the turn moves; 250 by default. It slows while nothing changes: see {@link pollDelay}. */
  pollMs?: number;
  /** Stops following (the client went away). */
  signal?: AbortSignal;
  /** Told each change of the turn's status or agent. */
  onProgress?: (progress: TurnProgress) => void;
}

/** Follows message `messageId` of thread `threadId` until it settles or waits for a person. */
export async function followTurn(
  ports: TurnPorts,
  threadId: string,
  messageId: string,
  options: FollowTurnOptions = {},
): Promise<TurnOutcome> {
  let told = '';
  let changedAt = Date.now();
  let turn: Turn | undefined;
  for (;;) {
    if (options.signal?.aborted) return { kind: 'aborted', ...(turn ? { turn } : {}) };
    const view = await patiently(() => ports.threads.get(threadId), options.signal);
    if (!view) return { kind: 'aborted', ...(turn ? { turn } : {}) };
    turn = view.turns.find((t) => t.messageId === messageId) ?? (await olderTurn(ports, threadId, messageId));
    if (!turn) throw new Error(`thread ${threadId} has no message ${messageId}`);
    const progress = `${turn.status} ${turn.agentId ?? ''}`;
    if (progress !== told) {
      told = progress;
      changedAt = Date.now();
      options.onProgress?.({ status: turn.status, ...(turn.agentId ? { agentId: turn.agentId } : {}) });
    }
    if (turnSettled(turn)) return { kind: 'settled', turn };
    if (view.status === 'closed') return { kind: 'closed', turn, reason: view.closedReason ?? 'closed' };
    const blocking = blockingAgent(turn, view.turns);
    if (blocking) {
      const state = await patiently(() => ports.agents.state(blocking, Number.MAX_SAFE_INTEGER), options.signal);
      if (!state) return { kind: 'aborted', turn };
      const open = state.interactions.filter((i) => i.status === 'open');
      if (open.length > 0) return { kind: 'waiting', turn, agentId: blocking, interactions: open };
    }
    const delay = pollDelay(options.pollMs ?? DEFAULT_POLL_MS, Date.now() - changedAt);
    if (!(await pause(delay, options.signal))) return { kind: 'aborted', turn };
  }
}

/** A message the read's page left out (newer turns pushed it past the newest 50), read by itself. */
async function olderTurn(ports: TurnPorts, threadId: string, messageId: string): Promise<Turn | undefined> {
  return ports.threads.message ? ports.threads.message(threadId, messageId) : undefined;
}

/** How long a look no worker answered in time waits before it is tried again (ms). */
export const UNAVAILABLE_RETRY_MS = 1_000;

/**
 * `read()`, tried again after {@link UNAVAILABLE_RETRY_MS} while no worker answers the query in
 * time (`AGENT_UNAVAILABLE`: a worker restarting, or too busy) — a long turn outlives such a
 * spell; undefined once the caller went away. Every other error is thrown.
 */
export async function patiently<T>(read: () => Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
  for (;;) {
    try {
      return await read();
    } catch (err) {
      if (!(err instanceof ClientError && err.code === 'AGENT_UNAVAILABLE')) throw err;
      if (!(await pause(UNAVAILABLE_RETRY_MS, signal))) return undefined;
    }
  }
}

/** The poll interval while a turn moves (ms). */
const DEFAULT_POLL_MS = 250;

/**
 * How long to wait before the next look, `quietMs` after the turn last changed: `pollMs` for
 * the first 5 s (a chat reply, a routing), then at least 1 s, and at least 2 s after a minute —
 * a task turn runs for minutes, and every look is a query of the thread and of its agent.
 */
export function pollDelay(pollMs: number, quietMs: number): number {
  if (quietMs < 5_000) return pollMs;
  return Math.max(pollMs, quietMs < 60_000 ? 1_000 : 2_000);
}

/** The agent whose questions hold this turn up: its own while it runs, the running turn's while it is queued. */
export function blockingAgent(turn: Turn, turns: readonly Turn[]): string | undefined {
  if (turn.status === 'running') return turn.agentId;
  if (turn.status === 'queued') return runningTurn(turns)?.agentId;
  return undefined;
}

/** The task turn that runs now, if any. */
export function runningTurn(turns: readonly Turn[]): Turn | undefined {
  return turns.find((t) => t.status === 'running' && t.agentId !== undefined);
}

/** What waits for a person, in words: each open interaction, and where it is answered. */
export function describeWaiting(agentId: string, interactions: readonly Interaction[]): string {
  const lines = interactions.map((i) => `- ${i.id} (${i.kind}): ${i.prompt}`);
  const answerable = interactions.some((i) => i.kind === 'ask.query')
    ? 'Your next message answers the question.'
    : `Answer at POST /api/agents/${agentId}/answers (or in the web page).`;
  return [`Agent ${agentId} is waiting for you:`, ...lines, answerable].join('\n');
}

/** What a message says whose thread closed before it was answered. */
export function closedText(reason: string): string {
  return `The thread has closed (${reason}): this message will not be answered.`;
}

/** What a settled turn says: its reply, else what became of it. */
export function settledText(turn: Turn): string {
  if (turn.reply !== undefined && turn.reply !== '') return turn.reply;
  if (turn.status === 'delivered') return `Steered into the running turn (${turn.agentId ?? 'its agent'}).`;
  if (turn.status === 'rejected')
    return turn.error !== undefined
      ? `Rejected: ${turn.error}`
      : 'Rejected: a turn is running and the message asked not to wait.';
  if (turn.status === 'failed') return `The turn failed${turn.error ? `: ${turn.error}` : '.'}`;
  return `The turn ended: ${turn.status}.`;
}
