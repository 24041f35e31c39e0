/**
 * The workflow ids of an agent's children (contract): steps are `<agent id>/step-<step id>`,
 * nested agents `<agent id>/step-<step id>/sub-<call id>`. Pure.
 */

/** The child workflow id of step `stepId` of agent `agentId`. */
export function stepWorkflowId(agentId: string, stepId: string): string {
  return `${agentId}/step-${stepId}`;
}

/** The workflow id of the nested agent a step's `sub_agent` call `callId` starts. */
export function subAgentWorkflowId(agentId: string, stepId: string, callId: string): string {
  return `${stepWorkflowId(agentId, stepId)}/sub-${callId}`;
}
