/**
 * Shared workflow modules, part 1 of 2 (`activity-profiles/` … `interactions/`): see workflows/shared-modules.ts
 * for what may be listed and why. test/unit/shared-modules.test.ts checks that every module a
 * listed one imports is listed too.
 */
import * as activityProfiles from './model/activity-profiles';
import * as agentAgentCarry from './model/agent/agent-carry';
import * as agentAgentContext from './model/agent/agent-context';
import * as agentAgentEnding from './model/agent/agent-ending';
import * as agentAgentState from './model/agent/agent-state';
import * as agentCancelAttribution from './model/agent/cancel-attribution';
import * as agentCarryMigration from './model/agent/carry-migration';
import * as agentDecisionLog from './model/agent/decision-log';
import * as agentDistinctApprovers from './model/agent/distinct-approvers';
import * as agentGraphGraphBounds from './agent/graph/graph-bounds';
import * as agentProgressMarkdown from './model/agent/progress-markdown';
import * as agentPrompts from './model/agent/prompts';
import * as budgetLeft from './model/llm/budget-left';
import * as contractAgentContract from './model/agent/agent-contract';
import * as contractAgentInput from './model/agent/agent-input';
import * as contractDefinitionSnapshot from './contract/definition-snapshot';
import * as contractErrorCodes from './base/error-codes';
import * as contractIds from './base/ids';
import * as contractIncomingMessages from './model/incoming-messages';
import * as contractLlmTaskQueue from './base/llm-task-queue';
import * as contractLoopGuardLimits from './base/loop-guard-limits';
import * as contractThreadSchemas from './model/thread/thread-schemas';
import * as fitConversation from './model/llm/fit-conversation';
import * as graphGraphExits from './model/graph/graph-exits';
import * as graphGraphOutputRules from './model/graph/graph-output-rules';
import * as graphGraphReach from './model/graph/graph-reach';
import * as graphGraphRules from './model/graph/graph-rules';
import * as graphGraphSchema from './model/graph/graph-schema';
import * as graphGraphWalk from './model/graph/graph-walk';
import * as graphRouteReply from './model/graph/route-reply';
import * as interactionsAnswerInputSchema from './model/interactions/answer-input-schema';
import * as interactionsAnswerRejection from './model/interactions/answer-rejection';
import * as interactionsAnswerRoles from './model/interactions/answer-roles';
import * as interactionsAnswerTypes from './model/interactions/answer-types';
import * as interactionsAskRequestSchema from './model/interactions/ask-request-schema';
import * as interactionsAskSchema from './model/interactions/ask-schema';
import * as interactionsAskUserTool from './model/interactions/ask-user-tool';
import * as interactionsExpiryAnswer from './model/interactions/expiry-answer';
import * as interactionsFormFieldTypes from './model/interactions/form-field-types';
import * as interactionsInteractionSchema from './model/interactions/interaction-schema';
import * as interactionsInteractionTypes from './model/interactions/interaction-types';
import * as interactionsKindsAnswerRules from './model/interactions/kinds/answer-rules';
import * as interactionsKindsAskForm from './model/interactions/kinds/ask-form';
import * as interactionsKindsAskQuery from './model/interactions/kinds/ask-query';
import * as interactionsKindsAskSelect from './model/interactions/kinds/ask-select';
import * as interactionsKindsBudget from './model/interactions/kinds/budget';
import * as interactionsKindsDeadline from './model/interactions/kinds/deadline';
import * as interactionsKindsKindModule from './model/interactions/kinds/kind-module';
import * as interactionsKindsPlanCheck from './model/interactions/kinds/plan-check';
import * as interactionsKindsRegistry from './model/interactions/kinds/registry';
import * as interactionsKindsStepFailure from './model/interactions/kinds/step-failure';
import * as interactionsKindsToolApproval from './model/interactions/kinds/tool-approval';
import * as interactionsValidateAnswer from './model/interactions/validate-answer';
import * as interactionsValidateForm from './model/interactions/validate-form';

export const sharedModules1: readonly unknown[] = [
  activityProfiles,
  agentAgentCarry,
  agentAgentContext,
  agentAgentEnding,
  agentAgentState,
  agentCancelAttribution,
  agentCarryMigration,
  agentDecisionLog,
  agentDistinctApprovers,
  agentGraphGraphBounds,
  agentProgressMarkdown,
  agentPrompts,
  budgetLeft,
  contractAgentContract,
  contractAgentInput,
  contractDefinitionSnapshot,
  contractErrorCodes,
  contractIds,
  contractIncomingMessages,
  contractLlmTaskQueue,
  contractLoopGuardLimits,
  contractThreadSchemas,
  fitConversation,
  graphGraphExits,
  graphGraphOutputRules,
  graphGraphReach,
  graphGraphRules,
  graphGraphSchema,
  graphGraphWalk,
  graphRouteReply,
  interactionsAnswerInputSchema,
  interactionsAnswerRejection,
  interactionsAnswerRoles,
  interactionsAnswerTypes,
  interactionsAskRequestSchema,
  interactionsAskSchema,
  interactionsAskUserTool,
  interactionsExpiryAnswer,
  interactionsFormFieldTypes,
  interactionsInteractionSchema,
  interactionsInteractionTypes,
  interactionsKindsAnswerRules,
  interactionsKindsAskForm,
  interactionsKindsAskQuery,
  interactionsKindsAskSelect,
  interactionsKindsBudget,
  interactionsKindsDeadline,
  interactionsKindsKindModule,
  interactionsKindsPlanCheck,
  interactionsKindsRegistry,
  interactionsKindsStepFailure,
  interactionsKindsToolApproval,
  interactionsValidateAnswer,
  interactionsValidateForm,
];
