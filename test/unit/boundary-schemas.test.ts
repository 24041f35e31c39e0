/**
 * Every value that crosses a boundary — a process (a signal, update or query payload, an
 * activity's input or result, a workflow's input or result), a release or a continue-as-new —
 * has one zod schema, and its type is that schema's `z.infer`. Here each schema gets a value
 * with every field set (test/harness/full-values.ts), and the value parses to itself, as it
 * arrives: through JSON. A field the schema gains without the value fails the coverage check
 * (test/harness/schema-coverage.ts); a field the type gains without the schema is stripped by
 * the parse and fails the round trip (and a hand-written type that drifts from its schema fails
 * `npm run typecheck` below).
 */
import type { z } from 'zod';
import { agentCarrySchema, type AgentCarry } from '../../workflows/model/agent/agent-carry';
import { agentInputSchema, type AgentInput } from '../../workflows/model/agent/agent-input';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { agentResultSchema, type AgentResult, type NestedAgentInput } from '../../workflows/model/agent/agent-contract';
import { budgetLeftSchema, type BudgetLeft } from '../../workflows/model/llm/budget-left';
import {
  rejectionDetailSchema,
  stepFailedDetailSchema,
  type RejectionDetail,
  type StepFailedDetail,
} from '../../workflows/contract/failures';
import { answerInputSchema } from '../../workflows/model/interactions/answer-input-schema';
import { interactionSpecSchema } from '../../workflows/model/interactions/interaction-schema';
import type { AnswerInput } from '../../workflows/model/interactions/interaction-types';
import {
  llmCheckInputSchema,
  llmCheckResultSchema,
  type LlmCheckInput,
  type LlmCheckResult,
} from '../../workflows/llm-check-workflow';
import {
  llmCallInputSchema,
  llmCallResultSchema,
  type conversationRefSchema,
  type ConversationRef,
  type LlmCallInput,
  type LlmCallResult,
} from '../../workflows/model/llm/llm-call-schema';
import {
  llmMessageSchema,
  modelSettingsSchema,
  type LlmMessage,
  type ModelSettings,
} from '../../workflows/model/llm/llm-types';
import {
  parseActedRequest,
  parseHoldRequest,
  parseNestedBudget,
  parseStepAnswer,
  parseStepHold,
  parseStepInteraction,
  parseStepProgress,
} from '../../workflows/contract/message-payloads';
import {
  actedRequestSchema,
  answerAcceptedSchema,
  conversationQueryArgsSchema,
  holdRequestSchema,
  stateQueryArgsSchema,
  stepAnswerSchema,
  stepHoldSchema,
  stepInteractionRequestSchema,
  stepProgressSchema,
  type AnswerAccepted,
  type ConversationQueryArgs,
  type HoldRequest,
  type StateQueryArgs,
  type StepAnswer,
  type StepHold,
  type StepInteractionRequest,
  type StepProgress,
} from '../../workflows/contract/messages';
import { planSchema, type planStepSchema } from '../../workflows/model/plan/plan-schema';
import type { Plan, PlanStep } from '../../workflows/model/plan/plan-types';
import { agentStateSchema } from '../../workflows/model/state/agent-state-schema';
import { migrateStepCarry, migrateStepInput } from '../../workflows/step/step-migration';
import { stepTranscriptSchema, type StepTranscript } from '../../workflows/contract/step-transcript';
import {
  stepCarrySchema,
  stepInputSchema,
  stepOutcomeSchema,
  type StepCarry,
  type StepInput,
  type StepOutcome,
} from '../../workflows/step/step-types';
import {
  policyCallInputSchema,
  policyDecisionSchema,
  type PolicyCallInput,
  type PolicyDecision,
} from '../../workflows/model/tools/policy-decision';
import {
  toolCallInputSchema,
  toolCallOutcomeSchema,
  toolInfoSchema,
  type ToolCallInput,
  type ToolCallOutcome,
  type ToolInfo,
} from '../../workflows/model/tools/tool-types';
import {
  fullActor,
  fullAgentCarry,
  fullAgentInput,
  fullAgentResults,
  fullConversation,
  fullLiveCall,
  fullLiveCarry,
  fullLiveEntries,
  fullLivePage,
  fullLlmCallInput,
  fullLlmCallResult,
  fullModel,
  fullPlan,
  fullProgress,
  fullState,
  fullStepCarry,
  fullStepInput,
  fullStepOutcomes,
  fullStepSpecs,
  fullTool,
  fullUsage,
} from '../harness/full-values';
import { unsetFields } from '../harness/schema-coverage';
import { approvalPreviewSchema, previewCallInputSchema } from '../../workflows/model/tools/approval-preview';
import {
  type liveCallSchema,
  livePageSchema,
  livePollSchema,
  livePublishSchema,
  liveReadSchema,
  liveStreamCarrySchema,
  liveStreamInputSchema,
  type LiveCall,
  type LivePage,
  type LivePoll,
  type LivePublish,
  type LiveRead,
  type LiveStreamCarry,
  type LiveStreamInput,
} from '../../workflows/contract/live-messages';

/** True only when `A` and `B` are the same type: an optional field one has and the other lacks makes them differ. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * Each boundary type is its schema's `z.infer` (`z.input` for the agent input, which callers
 * send without its defaults). Checked by the compiler: a type written by hand beside its schema
 * that drifts from it fails `npm run typecheck` here.
 */
export const typesAreTheirSchemas = {
  agentCarry: true satisfies Same<AgentCarry, z.infer<typeof agentCarrySchema>>,
  agentInput: true satisfies Same<AgentInput, z.input<typeof agentInputSchema>>,
  agentResult: true satisfies Same<AgentResult, z.infer<typeof agentResultSchema>>,
  agentState: true satisfies Same<AgentState, z.infer<typeof agentStateSchema>>,
  answerAccepted: true satisfies Same<AnswerAccepted, z.infer<typeof answerAcceptedSchema>>,
  answerInput: true satisfies Same<AnswerInput, z.infer<typeof answerInputSchema>>,
  budgetLeft: true satisfies Same<BudgetLeft, z.infer<typeof budgetLeftSchema>>,
  conversationRef: true satisfies Same<ConversationRef, z.infer<typeof conversationRefSchema>>,
  conversationQueryArgs: true satisfies Same<ConversationQueryArgs, z.infer<typeof conversationQueryArgsSchema>>,
  holdRequest: true satisfies Same<HoldRequest, z.infer<typeof actedRequestSchema>>,
  llmCallInput: true satisfies Same<LlmCallInput, z.infer<typeof llmCallInputSchema>>,
  llmCallResult: true satisfies Same<LlmCallResult, z.infer<typeof llmCallResultSchema>>,
  llmCheckInput: true satisfies Same<LlmCheckInput, z.infer<typeof llmCheckInputSchema>>,
  llmCheckResult: true satisfies Same<LlmCheckResult, z.infer<typeof llmCheckResultSchema>>,
  llmMessage: true satisfies Same<LlmMessage, z.infer<typeof llmMessageSchema>>,
  modelSettings: true satisfies Same<ModelSettings, z.infer<typeof modelSettingsSchema>>,
  rejectionDetail: true satisfies Same<RejectionDetail, z.infer<typeof rejectionDetailSchema>>,
  stepFailedDetail: true satisfies Same<StepFailedDetail, z.infer<typeof stepFailedDetailSchema>>,
  plan: true satisfies Same<Plan, z.infer<typeof planSchema>>,
  planStep: true satisfies Same<PlanStep, z.infer<typeof planStepSchema>>,
  policyCallInput: true satisfies Same<PolicyCallInput, z.infer<typeof policyCallInputSchema>>,
  policyDecision: true satisfies Same<PolicyDecision, z.infer<typeof policyDecisionSchema>>,
  stateQueryArgs: true satisfies Same<StateQueryArgs, z.infer<typeof stateQueryArgsSchema>>,
  stepAnswer: true satisfies Same<StepAnswer, z.infer<typeof stepAnswerSchema>>,
  stepCarry: true satisfies Same<StepCarry, z.infer<typeof stepCarrySchema>>,
  stepHold: true satisfies Same<StepHold, z.infer<typeof stepHoldSchema>>,
  stepInput: true satisfies Same<StepInput, z.infer<typeof stepInputSchema>>,
  stepInteractionRequest: true satisfies Same<StepInteractionRequest, z.infer<typeof stepInteractionRequestSchema>>,
  stepOutcome: true satisfies Same<StepOutcome, z.infer<typeof stepOutcomeSchema>>,
  stepProgress: true satisfies Same<StepProgress, z.infer<typeof stepProgressSchema>>,
  stepTranscript: true satisfies Same<StepTranscript, z.infer<typeof stepTranscriptSchema>>,
  toolCallInput: true satisfies Same<ToolCallInput, z.infer<typeof toolCallInputSchema>>,
  toolCallOutcome: true satisfies Same<ToolCallOutcome, z.infer<typeof toolCallOutcomeSchema>>,
  toolInfo: true satisfies Same<ToolInfo, z.infer<typeof toolInfoSchema>>,
  liveCall: true satisfies Same<LiveCall, z.infer<typeof liveCallSchema>>,
  livePage: true satisfies Same<LivePage, z.infer<typeof livePageSchema>>,
  livePoll: true satisfies Same<LivePoll, z.infer<typeof livePollSchema>>,
  livePublish: true satisfies Same<LivePublish, z.infer<typeof livePublishSchema>>,
  liveRead: true satisfies Same<LiveRead, z.infer<typeof liveReadSchema>>,
  liveStreamCarry: true satisfies Same<LiveStreamCarry, z.infer<typeof liveStreamCarrySchema>>,
  liveStreamInput: true satisfies Same<LiveStreamInput, z.infer<typeof liveStreamInputSchema>>,
};

/** A boundary schema and values that together set every field it names. */
interface Boundary {
  schema: z.ZodType;
  values: unknown[];
}

/** Each value as it arrives at the other side: through JSON, as Temporal's payloads carry it. */
const overTheWire = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

const boundaries: Record<string, Boundary> = {
  // Messages (workflows/contract/messages.ts).
  'answer signal and update': {
    schema: answerInputSchema,
    values: [{ interactionId: 'i1', answer: { text: 'eu' }, by: 'ann', actor: fullActor }],
  },
  'answer update result': { schema: answerAcceptedSchema, values: [{ interactionId: 'i1', answer: { text: 'eu' } }] },
  'state query argument': { schema: stateQueryArgsSchema, values: [{ afterSeq: 3 }] },
  'state query result': { schema: agentStateSchema, values: [fullState] },
  'pause and resume signals': { schema: holdRequestSchema, values: [{ by: 'ann', reason: 'lunch' }] },
  'pause, resume and recordCancel updates': {
    schema: actedRequestSchema,
    values: [{ by: 'ann', reason: 'lunch', actor: fullActor }],
  },
  'conversation query argument': { schema: conversationQueryArgsSchema, values: [{ key: 'step', length: 4 }] },
  'stepInteraction signal': {
    schema: stepInteractionRequestSchema,
    values: fullStepSpecs.map((spec, i) => ({ stepId: 's1', requestId: `r${i}`, spec })),
  },
  'stepProgress signal': { schema: stepProgressSchema, values: [fullProgress] },
  'stepHold signal': {
    schema: stepHoldSchema,
    values: [{ held: true, round: 2, left: { tokens: 100, costUsd: 0.5 } }],
  },
  'nestedBudget signal': { schema: budgetLeftSchema, values: [{ tokens: 100, costUsd: 0.5 }] },
  'stepAnswer signal': {
    schema: stepAnswerSchema,
    values: [{ requestId: 'r1', interactionId: 'i1', answer: { text: 'eu' }, by: 'ann', expired: 'fail' }],
  },
  // Workflows' inputs, results and carries.
  'agent input': { schema: agentInputSchema, values: [fullAgentInput] },
  'agent result': { schema: agentResultSchema, values: fullAgentResults },
  'agent carry': { schema: agentCarrySchema, values: [fullAgentCarry] },
  plan: { schema: planSchema, values: [fullPlan] },
  'step input': { schema: stepInputSchema, values: [fullStepInput] },
  'step outcome': { schema: stepOutcomeSchema, values: fullStepOutcomes },
  'step carry': { schema: stepCarrySchema, values: [fullStepCarry] },
  'transcript query result': {
    schema: stepTranscriptSchema,
    values: [{ stepId: 's1', ...fullStepCarry.transcript }],
  },
  'llm check input': { schema: llmCheckInputSchema, values: [{ prompt: 'hello', model: fullModel }] },
  'llm check result': { schema: llmCheckResultSchema, values: [{ answer: 'hi', model: 'gpt-test', usage: fullUsage }] },
  // Failure details clients read back by code.
  "answer's rejection detail": {
    schema: rejectionDetailSchema,
    values: [{ code: 'INVALID_ANSWER', field: 'answer.digest' }],
  },
  'STEP_FAILED detail': { schema: stepFailedDetailSchema, values: [{ stepId: 's1', code: 'LLM_AUTH' }] },
  // LLM messages and model settings, and the activities' inputs and results.
  'LLM messages': { schema: llmMessageSchema, values: fullConversation },
  'model settings': { schema: modelSettingsSchema, values: [fullModel] },
  'callLlm input': { schema: llmCallInputSchema, values: [fullLlmCallInput] },
  'callLlm result': { schema: llmCallResultSchema, values: [fullLlmCallResult] },
  'tool catalogue (listTools result)': { schema: toolInfoSchema, values: [fullTool] },
  'runTool input': {
    schema: toolCallInputSchema,
    values: [{ agentId: 'agent-1', stepId: 's1', callId: 'c1', name: 'lookup', arguments: '{}', scope: 'agent' }],
  },
  'runTool result': {
    schema: toolCallOutcomeSchema,
    values: [
      { ok: false, output: 'no such key' },
      { ok: true, output: 'an image', image: { path: 'a.png', mediaType: 'image/png', bytes: 9, scope: 'agent' } },
    ],
  },
  'decideToolCall input': {
    schema: policyCallInputSchema,
    values: [
      {
        tool: 'write_file',
        effect: 'write',
        arguments: { path: 'a' },
        principal: { id: 'ann', roles: ['operator'], authenticatedBy: 'token' },
      },
    ],
  },
  // An agent's live stream: what publishers send, what subscribers ask and read, its input and carry.
  'livePublish signal': {
    schema: livePublishSchema,
    values: [{ publisher: 'agent-1/step-s1/run-1/3#2', seq: 4, call: fullLiveCall, entries: fullLiveEntries }],
  },
  'livePoll update argument': { schema: livePollSchema, values: [{ subscriber: 'web-1', from: 12 }] },
  'liveRead query argument': { schema: liveReadSchema, values: [{ from: 12 }] },
  'livePoll update and liveRead query result': { schema: livePageSchema, values: [fullLivePage] },
  'live stream input': { schema: liveStreamInputSchema, values: [{ agentId: 'agent-1', pollsPerRun: 3 }] },
  'live stream carry': { schema: liveStreamCarrySchema, values: [fullLiveCarry] },
  'previewToolCall input': {
    schema: previewCallInputSchema,
    values: [
      { tool: 'write_file', arguments: { path: 'notes.md', content: 'new\n' }, agentId: 'agent-1', scope: 'agent' },
    ],
  },
  'previewToolCall result': {
    schema: approvalPreviewSchema,
    values: [{ path: 'notes.md', change: 'diff', text: '--- a/notes.md\n+++ b/notes.md', cut: true }],
  },
  'decideToolCall result': {
    schema: policyDecisionSchema,
    values: [{ decision: 'ask', rule: 'writes', role: 'lead', approvers: 2, reuse: 'never' }],
  },
};

describe.each(Object.entries(boundaries))('the %s', (_name, { schema, values }) => {
  test('example sets every field its schema names', () => {
    expect(unsetFields(schema, values)).toEqual([]);
  });

  test('loses nothing through its schema', () => {
    for (const value of values) expect(schema.parse(overTheWire(value))).toEqual(value);
  });
});

describe('each handler reads its full payload with nothing lost', () => {
  test('step → agent and agent → step signals', () => {
    for (const value of boundaries['stepProgress signal']?.values ?? []) {
      expect(parseStepProgress(overTheWire(value))).toEqual({ ok: true, value });
    }
    for (const value of boundaries['stepHold signal']?.values ?? []) {
      expect(parseStepHold(overTheWire(value))).toEqual({ ok: true, value });
    }
    for (const value of boundaries['nestedBudget signal']?.values ?? []) {
      expect(parseNestedBudget(overTheWire(value))).toEqual({ ok: true, value });
    }
    for (const value of boundaries['stepAnswer signal']?.values ?? []) {
      expect(parseStepAnswer(overTheWire(value))).toEqual({ ok: true, value });
    }
  });

  test('pause, resume and recordCancel: an update keeps its actor, a signal drops it', () => {
    const request = { by: 'ann', reason: 'lunch', actor: fullActor };
    expect(parseActedRequest(overTheWire(request))).toEqual({ ok: true, value: request });
    expect(parseHoldRequest(overTheWire(request))).toEqual({ ok: true, value: { by: 'ann', reason: 'lunch' } });
  });

  test.each(fullStepSpecs.map((spec) => [spec.kind, spec] as const))(
    'a step opening %s: every field its interaction keeps goes through the rules a step is held to',
    (kind, spec) => {
      // The spec's full shape is the interaction's (interactions/interaction-schema.ts).
      const stored = interactionSpecSchema.options.find((option) => option.shape.kind.value === kind);
      expect(stored && unsetFields(stored, [spec])).toEqual([]);
      const request = { stepId: 's1', requestId: 'r1', spec };
      expect(parseStepInteraction(overTheWire(request))).toEqual({ ok: true, value: request });
    },
  );

  test('a step reads its input and carry through the versioned reader', () => {
    expect(migrateStepInput(overTheWire(fullStepInput))).toEqual({ ok: true, value: fullStepInput });
    expect(migrateStepCarry(overTheWire(fullStepCarry))).toEqual({ ok: true, value: fullStepCarry });
  });

  test('a nested agent keeps all a step starts it with', () => {
    const nested: NestedAgentInput = {
      task: 'a sub-task',
      nested: true,
      principal: { id: 'ann', roles: ['operator'] },
      mode: { plan: true, ask: false, confirmPlan: false },
      tools: ['read_file'],
      model: fullModel,
      limits: { tokenBudget: 900, costBudgetUsd: 0.5 },
    };
    expect(agentInputSchema.parse(overTheWire(nested))).toMatchObject(nested);
  });
});
