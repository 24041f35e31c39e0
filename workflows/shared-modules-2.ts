/**
 * Shared workflow modules, part 2 of 2 (`issue-lines/` … `workflow-time/`): see workflows/shared-modules.ts
 * for what may be listed and why. test/unit/shared-modules.test.ts checks that every module a
 * listed one imports is listed too.
 */
import * as issueLines from './base/issue-lines';
import * as jsonReply from './model/json-reply';
import * as liveLiveLog from './model/live/live-log';
import * as liveLiveRetention from './model/live/live-retention';
import * as liveLiveSchemas from './model/live/live-schemas';
import * as llmCallSchema from './model/llm/llm-call-schema';
import * as llmTypes from './model/llm/llm-types';
import * as patchInfo from './base/patch-info';
import * as patches03 from './base/patches-0.3';
import * as patchesRetired from './base/patches-retired';
import * as patches from './base/patches';
import * as planAsGraph from './model/plan-as-graph';
import * as planAssessReply from './model/plan/assess-reply';
import * as planCheckPlan from './model/plan/check-plan';
import * as planPlanChanges from './model/plan/plan-changes';
import * as planPlanGraphRepair from './model/plan/plan-graph-repair';
import * as planPlanGraphRules from './model/plan/plan-graph-rules';
import * as planPlanReuse from './model/plan/plan-reuse';
import * as planPlanSchema from './model/plan/plan-schema';
import * as planPlanTypes from './model/plan/plan-types';
import * as planScheduler from './model/plan/scheduler';
import * as planStepTransitions from './model/plan/step-transitions';
import * as principal from './model/principal';
import * as promptsCheckOverrides from './model/prompts/check-overrides';
import * as promptsPromptTexts from './model/prompts/prompt-texts';
import * as promptsTemplates from './model/prompts/templates';
import * as reach from './model/reach';
import * as rolloverCarryConversation from './model/rollover/carry-conversation';
import * as rolloverVersionedReader from './model/rollover/versioned-reader';
import * as stateAgentPhases from './model/state/agent-phases';
import * as stateAgentStateSchema from './model/state/agent-state-schema';
import * as stateStepRunSchema from './model/state/step-run-schema';
import * as stepId from './model/step-id';
import * as stepRoundLedger from './model/step/round-ledger';
import * as stepStepPrompts from './model/step/step-prompts';
import * as stepStepToolTypes from './step/step-tool-types';
import * as stepToolImages from './model/step/tool-images';
import * as stepVerifyReply from './model/step/verify-reply';
import * as telemetrySpanAttributes from './base/span-attributes';
import * as threadMessageRoute from './model/thread/message-route';
import * as threadThreadBudget from './model/thread/thread-budget';
import * as threadThreadContext from './model/thread/thread-context';
import * as threadThreadView from './model/thread/thread-view';
import * as toolsApprovalPreview from './model/tools/approval-preview';
import * as toolsApprovalReuse from './model/tools/approval-reuse';
import * as toolsBuiltinTools from './model/tools/builtin-tools';
import * as toolsCallEffect from './model/tools/call-effect';
import * as toolsCutOutput from './model/tools/cut-output';
import * as toolsFinishStep from './model/tools/finish-step';
import * as toolsPolicyDecision from './model/tools/policy-decision';
import * as toolsSchemaRegex from './model/tools/schema-regex';
import * as toolsToolCatalogue from './model/tools/tool-catalogue';
import * as toolsToolTypes from './model/tools/tool-types';
import * as usage from './model/llm/usage';
import * as workflowTime from './base/workflow-time';

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
