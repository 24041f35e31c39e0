/**
 * The modules the worker shares between all workflows: every module under workflows/base/ and
 * workflows/model/ (see workflows/shared-modules.ts for why and what may be shared). Written by
 * scripts/shared-list.ts from the folders: do not edit, run `npx tsx scripts/shared-list.ts`.
 */
import * as baseErrorCodes from './base/error-codes';
import * as baseIds from './base/ids';
import * as baseIssueLines from './base/issue-lines';
import * as baseLlmTaskQueue from './base/llm-task-queue';
import * as baseLoopGuardLimits from './base/loop-guard-limits';
import * as basePatchInfo from './base/patch-info';
import * as basePatches from './base/patches';
import * as basePatches03 from './base/patches-0.3';
import * as basePatchesRetired from './base/patches-retired';
import * as baseSpanAttributes from './base/span-attributes';
import * as baseWorkflowTime from './base/workflow-time';
import * as modelActivityProfiles from './model/activity-profiles';
import * as modelAgentAgentCarry from './model/agent/agent-carry';
import * as modelAgentAgentContext from './model/agent/agent-context';
import * as modelAgentAgentContract from './model/agent/agent-contract';
import * as modelAgentAgentEnding from './model/agent/agent-ending';
import * as modelAgentAgentInput from './model/agent/agent-input';
import * as modelAgentAgentState from './model/agent/agent-state';
import * as modelAgentCancelAttribution from './model/agent/cancel-attribution';
import * as modelAgentCarryMigration from './model/agent/carry-migration';
import * as modelAgentDecisionLog from './model/agent/decision-log';
import * as modelAgentDefinitionSnapshot from './model/agent/definition-snapshot';
import * as modelAgentDistinctApprovers from './model/agent/distinct-approvers';
import * as modelAgentProgressMarkdown from './model/agent/progress-markdown';
import * as modelAgentPrompts from './model/agent/prompts';
import * as modelGraphGraphExits from './model/graph/graph-exits';
import * as modelGraphGraphOutputRules from './model/graph/graph-output-rules';
import * as modelGraphGraphReach from './model/graph/graph-reach';
import * as modelGraphGraphRules from './model/graph/graph-rules';
import * as modelGraphGraphSchema from './model/graph/graph-schema';
import * as modelGraphGraphWalk from './model/graph/graph-walk';
import * as modelGraphRouteReply from './model/graph/route-reply';
import * as modelIncomingMessages from './model/incoming-messages';
import * as modelInteractionsAnswerInputSchema from './model/interactions/answer-input-schema';
import * as modelInteractionsAnswerRejection from './model/interactions/answer-rejection';
import * as modelInteractionsAnswerRoles from './model/interactions/answer-roles';
import * as modelInteractionsAnswerTypes from './model/interactions/answer-types';
import * as modelInteractionsAskRequestSchema from './model/interactions/ask-request-schema';
import * as modelInteractionsAskSchema from './model/interactions/ask-schema';
import * as modelInteractionsAskUserTool from './model/interactions/ask-user-tool';
import * as modelInteractionsExpiryAnswer from './model/interactions/expiry-answer';
import * as modelInteractionsFormFieldTypes from './model/interactions/form-field-types';
import * as modelInteractionsInteractionSchema from './model/interactions/interaction-schema';
import * as modelInteractionsInteractionTypes from './model/interactions/interaction-types';
import * as modelInteractionsKindsAnswerRules from './model/interactions/kinds/answer-rules';
import * as modelInteractionsKindsAskForm from './model/interactions/kinds/ask-form';
import * as modelInteractionsKindsAskQuery from './model/interactions/kinds/ask-query';
import * as modelInteractionsKindsAskSelect from './model/interactions/kinds/ask-select';
import * as modelInteractionsKindsBudget from './model/interactions/kinds/budget';
import * as modelInteractionsKindsDeadline from './model/interactions/kinds/deadline';
import * as modelInteractionsKindsKindModule from './model/interactions/kinds/kind-module';
import * as modelInteractionsKindsPlanCheck from './model/interactions/kinds/plan-check';
import * as modelInteractionsKindsRegistry from './model/interactions/kinds/registry';
import * as modelInteractionsKindsStepFailure from './model/interactions/kinds/step-failure';
import * as modelInteractionsKindsToolApproval from './model/interactions/kinds/tool-approval';
import * as modelInteractionsValidateAnswer from './model/interactions/validate-answer';
import * as modelInteractionsValidateForm from './model/interactions/validate-form';
import * as modelJsonReply from './model/json-reply';
import * as modelLiveLiveLog from './model/live/live-log';
import * as modelLiveLiveRetention from './model/live/live-retention';
import * as modelLiveLiveSchemas from './model/live/live-schemas';
import * as modelLlmBudgetLeft from './model/llm/budget-left';
import * as modelLlmFitConversation from './model/llm/fit-conversation';
import * as modelLlmLlmCallSchema from './model/llm/llm-call-schema';
import * as modelLlmLlmTypes from './model/llm/llm-types';
import * as modelLlmModelStages from './model/llm/model-stages';
import * as modelLlmUsage from './model/llm/usage';
import * as modelPlanAsGraph from './model/plan-as-graph';
import * as modelPlanAssessReply from './model/plan/assess-reply';
import * as modelPlanCheckPlan from './model/plan/check-plan';
import * as modelPlanPlanChanges from './model/plan/plan-changes';
import * as modelPlanPlanGraphRepair from './model/plan/plan-graph-repair';
import * as modelPlanPlanGraphRules from './model/plan/plan-graph-rules';
import * as modelPlanPlanReuse from './model/plan/plan-reuse';
import * as modelPlanPlanSchema from './model/plan/plan-schema';
import * as modelPlanPlanTypes from './model/plan/plan-types';
import * as modelPlanScheduler from './model/plan/scheduler';
import * as modelPlanStepTransitions from './model/plan/step-transitions';
import * as modelPrincipal from './model/principal';
import * as modelPromptsCheckOverrides from './model/prompts/check-overrides';
import * as modelPromptsPromptOverrides from './model/prompts/prompt-overrides';
import * as modelPromptsPromptTexts from './model/prompts/prompt-texts';
import * as modelPromptsTemplates from './model/prompts/templates';
import * as modelReach from './model/reach';
import * as modelRolloverCarryConversation from './model/rollover/carry-conversation';
import * as modelRolloverVersionedReader from './model/rollover/versioned-reader';
import * as modelStateAgentPhases from './model/state/agent-phases';
import * as modelStateAgentStateSchema from './model/state/agent-state-schema';
import * as modelStateStepRunSchema from './model/state/step-run-schema';
import * as modelStepId from './model/step-id';
import * as modelStepRoundLedger from './model/step/round-ledger';
import * as modelStepStepPrompts from './model/step/step-prompts';
import * as modelStepToolImages from './model/step/tool-images';
import * as modelStepVerifyReply from './model/step/verify-reply';
import * as modelThreadMessageRoute from './model/thread/message-route';
import * as modelThreadThreadBudget from './model/thread/thread-budget';
import * as modelThreadThreadContext from './model/thread/thread-context';
import * as modelThreadThreadDetails from './model/thread/thread-details';
import * as modelThreadThreadSchemas from './model/thread/thread-schemas';
import * as modelThreadThreadView from './model/thread/thread-view';
import * as modelToolsApprovalPreview from './model/tools/approval-preview';
import * as modelToolsApprovalReuse from './model/tools/approval-reuse';
import * as modelToolsBuiltinTools from './model/tools/builtin-tools';
import * as modelToolsCallEffect from './model/tools/call-effect';
import * as modelToolsCutOutput from './model/tools/cut-output';
import * as modelToolsFinishStep from './model/tools/finish-step';
import * as modelToolsOwnPatterns from './model/tools/own-patterns';
import * as modelToolsPolicyDecision from './model/tools/policy-decision';
import * as modelToolsSchemaRegex from './model/tools/schema-regex';
import * as modelToolsToolCatalogue from './model/tools/tool-catalogue';
import * as modelToolsToolTypes from './model/tools/tool-types';

/** Every shared module of Cairn, in path order. */
export const sharedList: readonly unknown[] = [
  baseErrorCodes,
  baseIds,
  baseIssueLines,
  baseLlmTaskQueue,
  baseLoopGuardLimits,
  basePatchInfo,
  basePatches,
  basePatches03,
  basePatchesRetired,
  baseSpanAttributes,
  baseWorkflowTime,
  modelActivityProfiles,
  modelAgentAgentCarry,
  modelAgentAgentContext,
  modelAgentAgentContract,
  modelAgentAgentEnding,
  modelAgentAgentInput,
  modelAgentAgentState,
  modelAgentCancelAttribution,
  modelAgentCarryMigration,
  modelAgentDecisionLog,
  modelAgentDefinitionSnapshot,
  modelAgentDistinctApprovers,
  modelAgentProgressMarkdown,
  modelAgentPrompts,
  modelGraphGraphExits,
  modelGraphGraphOutputRules,
  modelGraphGraphReach,
  modelGraphGraphRules,
  modelGraphGraphSchema,
  modelGraphGraphWalk,
  modelGraphRouteReply,
  modelIncomingMessages,
  modelInteractionsAnswerInputSchema,
  modelInteractionsAnswerRejection,
  modelInteractionsAnswerRoles,
  modelInteractionsAnswerTypes,
  modelInteractionsAskRequestSchema,
  modelInteractionsAskSchema,
  modelInteractionsAskUserTool,
  modelInteractionsExpiryAnswer,
  modelInteractionsFormFieldTypes,
  modelInteractionsInteractionSchema,
  modelInteractionsInteractionTypes,
  modelInteractionsKindsAnswerRules,
  modelInteractionsKindsAskForm,
  modelInteractionsKindsAskQuery,
  modelInteractionsKindsAskSelect,
  modelInteractionsKindsBudget,
  modelInteractionsKindsDeadline,
  modelInteractionsKindsKindModule,
  modelInteractionsKindsPlanCheck,
  modelInteractionsKindsRegistry,
  modelInteractionsKindsStepFailure,
  modelInteractionsKindsToolApproval,
  modelInteractionsValidateAnswer,
  modelInteractionsValidateForm,
  modelJsonReply,
  modelLiveLiveLog,
  modelLiveLiveRetention,
  modelLiveLiveSchemas,
  modelLlmBudgetLeft,
  modelLlmFitConversation,
  modelLlmLlmCallSchema,
  modelLlmLlmTypes,
  modelLlmModelStages,
  modelLlmUsage,
  modelPlanAsGraph,
  modelPlanAssessReply,
  modelPlanCheckPlan,
  modelPlanPlanChanges,
  modelPlanPlanGraphRepair,
  modelPlanPlanGraphRules,
  modelPlanPlanReuse,
  modelPlanPlanSchema,
  modelPlanPlanTypes,
  modelPlanScheduler,
  modelPlanStepTransitions,
  modelPrincipal,
  modelPromptsCheckOverrides,
  modelPromptsPromptOverrides,
  modelPromptsPromptTexts,
  modelPromptsTemplates,
  modelReach,
  modelRolloverCarryConversation,
  modelRolloverVersionedReader,
  modelStateAgentPhases,
  modelStateAgentStateSchema,
  modelStateStepRunSchema,
  modelStepId,
  modelStepRoundLedger,
  modelStepStepPrompts,
  modelStepToolImages,
  modelStepVerifyReply,
  modelThreadMessageRoute,
  modelThreadThreadBudget,
  modelThreadThreadContext,
  modelThreadThreadDetails,
  modelThreadThreadSchemas,
  modelThreadThreadView,
  modelToolsApprovalPreview,
  modelToolsApprovalReuse,
  modelToolsBuiltinTools,
  modelToolsCallEffect,
  modelToolsCutOutput,
  modelToolsFinishStep,
  modelToolsOwnPatterns,
  modelToolsPolicyDecision,
  modelToolsSchemaRegex,
  modelToolsToolCatalogue,
  modelToolsToolTypes,
];
