/**
 * Shared workflow modules, part 1 of 2 (`activity-profiles/` … `interactions/`): see workflows/shared-modules.ts
 * for what may be listed and why. test/unit/shared-modules.test.ts checks that every module a
 * listed one imports is listed too.
 */
import * as activityProfiles from './activity-profiles';
import * as agentAgentCarry from './agent/agent-carry';
import * as agentAgentContext from './agent/agent-context';
import * as agentAgentEnding from './agent/agent-ending';
import * as agentAgentState from './agent/agent-state';
import * as agentCancelAttribution from './agent/cancel-attribution';
import * as agentCarryMigration from './agent/carry-migration';
import * as agentDecisionLog from './agent/decision-log';
import * as agentDistinctApprovers from './agent/distinct-approvers';
import * as agentGraphGraphBounds from './agent/graph/graph-bounds';
import * as agentProgressMarkdown from './agent/progress-markdown';
import * as agentPrompts from './agent/prompts';
import * as budgetLeft from './budget-left';
import * as contractAgentContract from './contract/agent-contract';
import * as contractAgentInput from './contract/agent-input';
import * as contractDefinitionSnapshot from './contract/definition-snapshot';
import * as contractErrorCodes from './contract/error-codes';
import * as contractIds from './contract/ids';
import * as contractIncomingMessages from './contract/incoming-messages';
import * as contractLlmTaskQueue from './contract/llm-task-queue';
import * as contractLoopGuardLimits from './contract/loop-guard-limits';
import * as contractThreadSchemas from './contract/thread-schemas';
import * as fitConversation from './fit-conversation';
import * as graphGraphExits from './graph/graph-exits';
import * as graphGraphOutputRules from './graph/graph-output-rules';
import * as graphGraphReach from './graph/graph-reach';
import * as graphGraphRules from './graph/graph-rules';
import * as graphGraphSchema from './graph/graph-schema';
import * as graphGraphWalk from './graph/graph-walk';
import * as graphRouteReply from './graph/route-reply';
import * as interactionsAnswerInputSchema from './interactions/answer-input-schema';
import * as interactionsAnswerRejection from './interactions/answer-rejection';
import * as interactionsAnswerRoles from './interactions/answer-roles';
import * as interactionsAnswerTypes from './interactions/answer-types';
import * as interactionsAskRequestSchema from './interactions/ask-request-schema';
import * as interactionsAskSchema from './interactions/ask-schema';
import * as interactionsAskUserTool from './interactions/ask-user-tool';
import * as interactionsExpiryAnswer from './interactions/expiry-answer';
import * as interactionsFormFieldTypes from './interactions/form-field-types';
import * as interactionsInteractionSchema from './interactions/interaction-schema';
import * as interactionsInteractionTypes from './interactions/interaction-types';
import * as interactionsKindsAnswerRules from './interactions/kinds/answer-rules';
import * as interactionsKindsAskForm from './interactions/kinds/ask-form';
import * as interactionsKindsAskQuery from './interactions/kinds/ask-query';
import * as interactionsKindsAskSelect from './interactions/kinds/ask-select';
import * as interactionsKindsBudget from './interactions/kinds/budget';
import * as interactionsKindsDeadline from './interactions/kinds/deadline';
import * as interactionsKindsKindModule from './interactions/kinds/kind-module';
import * as interactionsKindsPlanCheck from './interactions/kinds/plan-check';
import * as interactionsKindsRegistry from './interactions/kinds/registry';
import * as interactionsKindsStepFailure from './interactions/kinds/step-failure';
import * as interactionsKindsToolApproval from './interactions/kinds/tool-approval';
import * as interactionsValidateAnswer from './interactions/validate-answer';
import * as interactionsValidateForm from './interactions/validate-form';

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
