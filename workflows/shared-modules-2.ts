/**
 * Shared workflow modules, part 2 of 2 (`issue-lines/` … `workflow-time/`): see workflows/shared-modules.ts
 * for what may be listed and why. test/unit/shared-modules.test.ts checks that every module a
 * listed one imports is listed too.
 */
import * as issueLines from './issue-lines';
import * as jsonReply from './json-reply';
import * as liveLiveLog from './live/live-log';
import * as liveLiveRetention from './live/live-retention';
import * as liveLiveSchemas from './live/live-schemas';
import * as llmCallSchema from './llm-call-schema';
import * as llmTypes from './llm-types';
import * as patchInfo from './patch-info';
import * as patches03 from './patches-0.3';
import * as patchesRetired from './patches-retired';
import * as patches from './patches';
import * as planAsGraph from './plan-as-graph';
import * as planAssessReply from './plan/assess-reply';
import * as planCheckPlan from './plan/check-plan';
import * as planPlanChanges from './plan/plan-changes';
import * as planPlanGraphRepair from './plan/plan-graph-repair';
import * as planPlanGraphRules from './plan/plan-graph-rules';
import * as planPlanReuse from './plan/plan-reuse';
import * as planPlanSchema from './plan/plan-schema';
import * as planPlanTypes from './plan/plan-types';
import * as planScheduler from './plan/scheduler';
import * as planStepTransitions from './plan/step-transitions';
import * as principal from './principal';
import * as promptsCheckOverrides from './prompts/check-overrides';
import * as promptsPromptTexts from './prompts/prompt-texts';
import * as promptsTemplates from './prompts/templates';
import * as reach from './reach';
import * as rolloverCarryConversation from './rollover/carry-conversation';
import * as rolloverVersionedReader from './rollover/versioned-reader';
import * as stateAgentPhases from './state/agent-phases';
import * as stateAgentStateSchema from './state/agent-state-schema';
import * as stateStepRunSchema from './state/step-run-schema';
import * as stepId from './step-id';
import * as stepRoundLedger from './step/round-ledger';
import * as stepStepPrompts from './step/step-prompts';
import * as stepStepToolTypes from './step/step-tool-types';
import * as stepToolImages from './step/tool-images';
import * as stepVerifyReply from './step/verify-reply';
import * as telemetrySpanAttributes from './telemetry/span-attributes';
import * as threadMessageRoute from './thread/message-route';
import * as threadThreadBudget from './thread/thread-budget';
import * as threadThreadContext from './thread/thread-context';
import * as threadThreadView from './thread/thread-view';
import * as toolsApprovalPreview from './tools/approval-preview';
import * as toolsApprovalReuse from './tools/approval-reuse';
import * as toolsBuiltinTools from './tools/builtin-tools';
import * as toolsCallEffect from './tools/call-effect';
import * as toolsCutOutput from './tools/cut-output';
import * as toolsFinishStep from './tools/finish-step';
import * as toolsPolicyDecision from './tools/policy-decision';
import * as toolsSchemaRegex from './tools/schema-regex';
import * as toolsToolCatalogue from './tools/tool-catalogue';
import * as toolsToolTypes from './tools/tool-types';
import * as usage from './usage';
import * as workflowTime from './workflow-time';

export const sharedModules2: readonly unknown[] = [
  issueLines,
  jsonReply,
  liveLiveLog,
  liveLiveRetention,
  liveLiveSchemas,
  llmCallSchema,
  llmTypes,
  patchInfo,
  patches03,
  patchesRetired,
  patches,
  planAsGraph,
  planAssessReply,
  planCheckPlan,
  planPlanChanges,
  planPlanGraphRepair,
  planPlanGraphRules,
  planPlanReuse,
  planPlanSchema,
  planPlanTypes,
  planScheduler,
  planStepTransitions,
  principal,
  promptsCheckOverrides,
  promptsPromptTexts,
  promptsTemplates,
  reach,
  rolloverCarryConversation,
  rolloverVersionedReader,
  stateAgentPhases,
  stateAgentStateSchema,
  stateStepRunSchema,
  stepId,
  stepRoundLedger,
  stepStepPrompts,
  stepStepToolTypes,
  stepToolImages,
  stepVerifyReply,
  telemetrySpanAttributes,
  threadMessageRoute,
  threadThreadBudget,
  threadThreadContext,
  threadThreadView,
  toolsApprovalPreview,
  toolsApprovalReuse,
  toolsBuiltinTools,
  toolsCallEffect,
  toolsCutOutput,
  toolsFinishStep,
  toolsPolicyDecision,
  toolsSchemaRegex,
  toolsToolCatalogue,
  toolsToolTypes,
  usage,
  workflowTime,
];
