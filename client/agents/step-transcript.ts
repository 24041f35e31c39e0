/**
 * Reads a step's transcript (docs/contracts.md#step-transcripts) with the step workflow's
 * `transcript` query: `<agent id>/step-<step id>`, its latest run — the one a retried step runs
 * now, or the last of a chain that continued as new. A step that has closed still answers while
 * Temporal retains it (a worker replays it to answer). The agent itself is checked by the caller.
 */
import { QueryNotRegisteredError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { STEP_WORKFLOW_TYPE } from '../../workflows/model/agent/agent-contract';
import { stepWorkflowId } from '../../workflows/base/ids';
import { transcriptQuery, type StepTranscript } from '../../workflows/contract/step-transcript';
import { ClientError } from '../client-error';
import { isUnansweredQuery } from '../unanswered-query';
import { withWorkflowOfKind } from '../workflow-kind-guard';

/** What a step id looks like (docs/contracts.md#workflow-ids): anything else names no step. */
const STEP_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** The steps of agents: `stepWorkflow` only. */
const STEP_KIND = { types: [STEP_WORKFLOW_TYPE], noun: 'step' };

/**
 * The transcript of step `stepId` of agent `agentId`. A step that never started (or is no step,
 * or runs on a release without transcripts) is `NOT_FOUND` with field `stepId`; a query no worker answers within `timeoutMs` is
 * `AGENT_UNAVAILABLE`.
 */
export async function readStepTranscript(
  client: Client,
  agentId: string,
  stepId: string,
  timeoutMs: number,
): Promise<StepTranscript> {
  const noStep = () => new ClientError('NOT_FOUND', `agent "${agentId}" has no step "${stepId}"`, 'stepId');
  if (!STEP_ID.test(stepId)) throw noStep();
  const id = stepWorkflowId(agentId, stepId);
  try {
    return await withWorkflowOfKind(client, id, STEP_KIND, () =>
      client.withDeadline(Date.now() + timeoutMs, () => client.workflow.getHandle(id).query(transcriptQuery)),
    );
  } catch (err) {
    if (err instanceof WorkflowNotFoundError || (err instanceof ClientError && err.code === 'NOT_FOUND'))
      throw noStep();
    // Workers of a release before transcripts (the step's pinned version) know no such query.
    if (err instanceof QueryNotRegisteredError) {
      throw new ClientError('NOT_FOUND', `step "${stepId}" runs on a release without transcripts`, 'stepId');
    }
    if (!isUnansweredQuery(err)) throw err;
    const message = `no worker answered step "${stepId}" of agent "${agentId}" within ${timeoutMs / 1000} s (workers down or busy); try again`;
    throw new ClientError('AGENT_UNAVAILABLE', message);
  }
}
