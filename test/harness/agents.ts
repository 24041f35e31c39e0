/**
 * Helpers for agent integration tests: start an agent on a test's queue, wait for the state
 * to reach a condition, find open interactions and answer them (plan replies: plans.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { agentWorkspaceDir } from '../../config/agent-workspace';
import type { CairnConfig } from '../../config/config';
import type { AgentInput } from '../../workflows/model/agent/agent-input';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { agentWorkflow } from '../../workflows/agent/agent-workflow';
import type { Interaction, InteractionKind } from '../../workflows/model/interactions/interaction-types';
import { answerUpdate, stateQuery } from '../../workflows/contract/messages';
import { uniqueId } from './test-env';
import { waitUntil } from '../../testkit/wait-until';

export type AgentHandle = WorkflowHandle<typeof agentWorkflow>;

/** Starts an agent on the test's task queue (under `workflowId`, when a test must know it first). */
export function startAgent(
  client: Client,
  config: CairnConfig,
  input: AgentInput,
  workflowId = uniqueId('agent-test'),
): Promise<AgentHandle> {
  return client.workflow.start(agentWorkflow, { taskQueue: config.taskQueue, workflowId, args: [input] });
}

/** The path of `path` in the agent's own folder below the workspace root `workspace`. */
export function agentFile(workspace: string, agentId: string, path: string): string {
  return join(agentWorkspaceDir(workspace, agentId), path);
}

/**
 * The folder an agent's file tools work in: its own below the workspace root
 * (config/agent-workspace.ts), made here so a test can put files there before the agent starts.
 */
export function agentFolder(config: CairnConfig, agentId: string): string {
  const dir = agentWorkspaceDir(config.workspace, agentId);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The agent's state. */
export function stateOf(handle: AgentHandle): Promise<AgentState> {
  return handle.query(stateQuery);
}

/** Waits until the state satisfies `predicate`, returning it. */
export function waitForState(
  handle: AgentHandle,
  description: string,
  predicate: (state: AgentState) => boolean,
  timeoutMs?: number,
): Promise<AgentState> {
  return waitUntil(
    description,
    async () => {
      const state = await stateOf(handle);
      return predicate(state) ? state : undefined;
    },
    timeoutMs === undefined ? {} : { timeoutMs },
  );
}

/**
 * Waits for an open interaction of `kind` (and step, when given) and returns it, typed by kind;
 * `timeoutMs` for one that comes only after long work.
 */
export async function waitForInteraction<K extends InteractionKind>(
  handle: AgentHandle,
  kind: K,
  stepId?: string,
  timeoutMs?: number,
): Promise<Extract<Interaction, { kind: K }>> {
  const matches = (i: Interaction): i is Extract<Interaction, { kind: K }> =>
    i.status === 'open' && i.kind === kind && (stepId === undefined || i.stepId === stepId);
  const state = await waitForState(
    handle,
    `an open ${kind}${stepId ? ` for ${stepId}` : ''}`,
    (s) => s.interactions.some(matches),
    timeoutMs,
  );
  const found = state.interactions.find(matches);
  if (!found) throw new Error(`no open ${kind}`);
  return found;
}

/** Answers by update (the validator's verdict comes back at once). */
export function answer(handle: AgentHandle, interactionId: string, value: unknown, by = 'tester') {
  return handle.executeUpdate(answerUpdate, { args: [{ interactionId, answer: value, by }] });
}

/** Sends an answer the update must reject, and returns the validator's message. */
export async function rejection(handle: AgentHandle, interactionId: string, value: unknown): Promise<string> {
  const error = await answer(handle, interactionId, value).then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof WorkflowUpdateFailedError))
    throw new Error(`expected the update to be rejected, got ${String(error)}`);
  return error.cause?.message ?? '';
}
