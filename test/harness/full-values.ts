/**
 * A value with every field set — optional ones included, every array and record filled, every
 * union option taken — for each schema a value crosses a boundary with: a signal, update or
 * query payload, a workflow's input, result or carry, an activity's input or result
 * (test/unit/boundary-schemas.test.ts). Typed with the exported types, so a field the type does
 * not have cannot be set here; test/harness/schema-coverage.ts checks that none the schema has is
 * left out.
 */
import type { LiveCall, LiveEntry, LiveItem, LivePage, LiveStreamCarry } from '../../workflows/contract/live-messages';
import type { AgentCarry } from '../../workflows/model/agent/agent-carry';
import type { AgentInput } from '../../workflows/model/agent/agent-input';
import type { AgentState, StepRun } from '../../workflows/model/agent/agent-state';
import type { AgentResult } from '../../workflows/model/agent/agent-contract';
import type { Answer, Interaction, InteractionSpec } from '../../workflows/model/interactions/interaction-types';
import type { LlmCallInput, LlmCallResult } from '../../workflows/model/llm/llm-call-schema';
import type { LlmMessage, ModelSettings } from '../../workflows/model/llm/llm-types';
import type { Actor, StepProgress } from '../../workflows/contract/messages';
import type { Plan } from '../../workflows/model/plan/plan-types';
import type { Graph } from '../../workflows/model/graph/graph-schema';
import type { StepCarry, StepInput, StepOutcome } from '../../workflows/step/step-types';
import type { TokenUsage } from '../../workflows/model/state/step-run-schema';
import type { EarlierApproval } from '../../workflows/model/tools/approval-reuse';
import type { ToolCallRecord, ToolInfo } from '../../workflows/model/tools/tool-types';

export const fullActor: Actor = {
  id: 'ann',
  name: 'Ann',
  roles: ['approver'],
  method: 'web',
  authenticatedBy: 'oidc-session',
};

export const fullUsage: TokenUsage = {
  promptTokens: 10,
  completionTokens: 5,
  totalTokens: 15,
  cachedPromptTokens: 4,
  costUsd: 0.25,
  estimated: true,
};

export const fullModel: ModelSettings = {
  endpoint: 'hosted',
  name: 'gpt-test',
  temperature: 0.5,
  topP: 0.9,
  maxTokens: 1000,
  contextTokens: 8192,
  reasoningEffort: 'high',
  vision: true,
  stop: ['<END>'],
  toolChoice: 'required',
};

/** One message of each role, the assistant's with tool calls. */
export const fullConversation: LlmMessage[] = [
  { role: 'system', content: 'You are a step.' },
  { role: 'user', content: 'Do it.' },
  { role: 'assistant', content: 'calling', toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{"key":"k"}' }] },
  {
    role: 'tool',
    toolCallId: 'c1',
    content: 'found',
    image: { path: 'chart.png', mediaType: 'image/png', bytes: 120, scope: 'agent' },
  },
];

export const fullTool: ToolInfo = {
  name: 'http_fetch',
  description: 'Fetches a URL',
  effect: 'write',
  idempotent: false,
  needsApproval: true,
  readWhen: { argument: 'method', default: 'GET', values: ['GET', 'HEAD'] },
  parameters: { type: 'object', properties: { url: { type: 'string' } } },
  policy: true,
  autoApproved: true,
};

export const fullToolCallRecord: ToolCallRecord = {
  callId: 'c1',
  name: 'lookup',
  arguments: '{"key":"k"}',
  outcome: 'ok',
  durationMs: 12,
  policy: { decision: 'allow', rule: 'reads', at: 1_700_000_000_000 },
  approvalReused: { agentId: 'thread-notes-1a2b3c4d/turn-1', interactionId: 'i2', by: ['ann'], at: 1_700_000_000_000 },
};

/** An approval given in an earlier turn of a thread. */
export const fullEarlierApproval: EarlierApproval = {
  agentId: 'thread-notes-1a2b3c4d/turn-1',
  interactionId: 'i2',
  tool: 'write_file',
  digest: 'sha256:abc',
  role: 'approver',
  approvers: 2,
  by: ['ann', 'bob'],
  sender: { id: 'ann', authenticatedBy: 'token' },
};

export const fullPlan: Plan = {
  task: 'a task',
  language: 'en',
  steps: [
    { id: 's1', title: 'First', description: 'Do the first thing', depends_on: [], done_when: 'it is done' },
    { id: 's2', title: 'Second', description: 'Do the second thing', depends_on: ['s1'], done_when: 'also done' },
    {
      id: 's0',
      title: 'Earlier',
      description: 'Done earlier',
      depends_on: [],
      reused: { agentId: 'thread-notes-1a2b3c4d/turn-1', stepId: 's0' },
    },
  ],
  replan: ['s1'],
  reuse: [{ agentId: 'thread-notes-1a2b3c4d/turn-1', stepId: 's9' }],
};

export const fullProgress: StepProgress = {
  stepId: 's1',
  round: 2,
  model: 'gpt-test',
  streamed: true,
  usage: fullUsage,
  toolCalls: [fullToolCallRecord],
  notices: [{ type: 'step.guard', message: 'a call was refused' }],
  heard: ['msg-2'],
  cancelled: true,
  partial: 'what it had',
};

/** The questions a step may open (held to the rules of `ask_user`), each with every field its kind has. */
export const fullStepSpecs: InteractionSpec[] = [
  { kind: 'ask.query', prompt: 'Which region?' },
  { kind: 'ask.select', prompt: 'Pick one', options: ['eu', 'us'], multiple: true },
  {
    kind: 'ask.form',
    prompt: 'Fill in',
    fields: [
      { key: 'name', label: 'Name', type: 'input', required: true, default: 'Ann', maxLength: 40 },
      { key: 'pages', label: 'Pages', type: 'number', required: false, default: 3, min: 1, max: 10 },
      { key: 'ok', label: 'OK?', type: 'boolean', required: false, default: true },
      { key: 'tags', label: 'Tags', type: 'multiselect', required: false, default: ['a'], options: ['a', 'b'] },
    ],
  },
  {
    kind: 'tool.approval',
    prompt: 'May it write?',
    tool: 'write_file',
    arguments: { path: 'notes.txt' },
    digest: 'sha256:abc',
    why: 'it writes a file',
    preview: { path: 'notes.txt', change: 'diff', text: '--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@', cut: true },
    rule: 'writes-need-two',
    role: 'lead',
    approvers: 2,
  },
];

/** What an interaction's record adds to its question (the same for every kind). */
type InteractionRecord = Omit<Extract<Interaction, { kind: 'ask.query' }>, 'kind' | 'prompt'>;

/** One interaction of each kind, answered, with every field of the record set. */
function answered(spec: InteractionSpec, answer: Answer, n: number): Interaction {
  const record: InteractionRecord = {
    id: `i${n}`,
    status: 'answered',
    stepId: 's1',
    createdAt: 1_700_000_000_000 + n,
    expiresAt: 1_700_000_100_000 + n,
    role: 'approver',
    askedOf: { id: 'ann', authenticatedBy: 'oidc-session' },
    answer,
    by: 'ann',
    actor: fullActor,
    answeredAt: 1_700_000_050_000 + n,
    approvals: [{ actor: fullActor, at: 1_700_000_040_000 + n }],
  };
  return { ...spec, ...record };
}

const [query, select, form, approval] = fullStepSpecs as [
  InteractionSpec,
  InteractionSpec,
  InteractionSpec,
  InteractionSpec,
];

/** A graph with every field set: both kinds of condition, a plain edge, a join and an output schema. */
export const fullGraph: Graph = {
  name: 'review-loop',
  description: 'Draft, review, revise.',
  nodes: [
    {
      id: 'review',
      title: 'Review',
      systemPrompt: 'Review the draft.',
      tools: ['read_file'],
      model: fullModel,
      output: { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] },
      join: 'any',
    },
    { id: 'revise', systemPrompt: 'Revise it.' },
  ],
  edges: [
    { from: 'review', to: 'revise', when: { equals: { path: 'approved', value: false } } },
    { from: 'review', to: 'revise', when: { llm: 'The draft needs work.' } },
    // `equals` values of every JSON kind.
    ...[
      'no',
      2,
      null,
      ['s', 2, true, null, ['t'], { a: 'b' }],
      { s: 'x', n: 1, b: true, z: null, l: ['t'], o: { a: 'b' } },
    ].map((value) => ({
      from: 'review',
      to: 'revise',
      when: { equals: { path: 'verdict', value } },
    })),
    { from: 'revise', to: 'review' },
  ],
  entry: ['review'],
  end: ['review'],
  maxIterations: 3,
  timeoutMs: 600_000,
};

export const fullInteractions: Interaction[] = [
  answered(query, { text: 'eu' }, 1),
  answered(select, { values: ['eu'] }, 2),
  answered(form, { values: { name: 'Ann', pages: 3 } }, 3),
  answered(
    {
      kind: 'plan.check',
      prompt: 'Go?',
      plan: fullPlan,
      revision: 1,
      graph: fullGraph,
      decisions: ['confirm', 'cancel'],
      changes: { added: ['s3'], removed: ['s2'], changed: ['s1'] },
    },
    { decision: 'edit', feedback: 'shorter', plan: fullPlan },
    4,
  ),
  answered(approval, { decision: 'approve', digest: 'sha256:abc', reason: 'fine' }, 5),
  answered({ kind: 'step.failure', prompt: 'Retry?', error: 'it failed' }, { decision: 'retry' }, 6),
  answered(
    {
      kind: 'budget',
      prompt: 'Raise?',
      usedTokens: 900,
      tokenBudget: 1000,
      costUsd: 0.5,
      costBudgetUsd: 1,
      maxTokenBudget: 3000,
      maxCostBudgetUsd: 3,
    },
    { decision: 'raise', tokenBudget: 2000, costBudgetUsd: 2 },
    7,
  ),
  answered(
    { kind: 'deadline', prompt: 'Extend?', deadlineAt: 1_700_000_900_000 },
    { decision: 'extend', deadlineMs: 60_000 },
    8,
  ),
];

export const fullStepRun: StepRun = {
  id: 's1',
  title: 'First',
  status: 'completed',
  result: 'done',
  goalCheck: 'the file exists',
  delivered: true,
  verified: false,
  sentBack: 2,
  error: 'an earlier attempt failed',
  partial: 'what it had',
  reused: { agentId: 'thread-notes-1a2b3c4d/turn-1', stepId: 's1' },
  usage: fullUsage,
  toolCalls: [fullToolCallRecord],
  toolCallCount: 1,
  rounds: 2,
  attempts: 1,
  startedAt: 1_700_000_000_000,
  endedAt: 1_700_000_001_000,
};

export const fullState: AgentState = {
  phase: 'paused',
  task: 'a task',
  plan: fullPlan,
  graph: fullGraph,
  assessment: { complexity: 'complex' },
  prompts: { overridden: ['planner.system'] },
  definition: { name: 'support', version: 'a'.repeat(64), label: 'handbook v1' },
  workspace: 'agent',
  path: [
    { node: 'review', visit: 1, stepId: 'review', edge: { to: 'revise', reason: 'output.approved equals false' } },
  ],
  pathDropped: 2,
  revision: 1,
  steps: [fullStepRun],
  interactions: fullInteractions,
  usage: fullUsage,
  events: [
    {
      seq: 7,
      at: 1_700_000_002_000,
      type: 'agent.paused',
      message: 'paused by ann',
      stepId: 's1',
      interactionId: 'i1',
      actor: fullActor,
    },
  ],
  eventSeq: 7,
  asks: 1,
  replans: 1,
  model: 'gpt-test',
  demo: false,
  streaming: true,
  result: 'all done',
  error: 'step s2 failed: it broke',
  failure: { code: 'STEP_FAILED', stepId: 's2', cause: 'STEP_TOOL_ERRORS' },
  hold: { reasons: ['pause', 'budget'], resumePhase: 'executing', by: 'ann', reason: 'lunch', actor: fullActor },
  tokenBudget: 2000,
  costBudgetUsd: 2,
  deadlineAt: 1_700_000_900_000,
  stopReason: 'budget',
  cancelRequest: { at: 1_700_000_003_000, by: 'ann', reason: 'done', actor: fullActor },
  decisions: [
    {
      at: 1_700_000_004_000,
      what: 'write_file allowed',
      kind: 'policy',
      actor: fullActor,
      decision: 'allow',
      rule: 'writes',
      tool: 'write_file',
      stepId: 's1',
      interactionId: 'i2',
    },
  ],
  decisionsDropped: 3,
  heldSteers: [{ text: 'only the markdown ones', by: 'ann', messageId: 'msg-2' }],
  heard: ['msg-3'],
};

export const fullAgentCarry: AgentCarry = {
  version: 2,
  resumeAt: 'execute',
  state: fullState,
  planner: fullConversation,
  tools: [fullTool],
  stepRoutes: { i1: { stepId: 's1', requestId: 'r1' } },
  walk: { visits: { review: 1 }, fired: { revise: [0] }, endReached: { node: 'review', stepId: 'review' } },
  prompts: { 'planner.system': 'PLAN. {{ask_rule}} {{tools}}' },
};

/** An agent input with every field set, none left to its default. */
export const fullAgentInput: AgentInput = {
  task: 'a task',
  systemPrompt: 'Be brief.',
  files: ['notes.txt'],
  model: fullModel,
  modelStages: { plan: { ...fullModel, temperature: 0.1 }, summary: { name: 'small', stop: ['###'] } },
  prompts: { 'step.system': 'STEP. {{tools}}' },
  mode: { plan: true, ask: true, confirmPlan: true, replanAfter: 'each', verifySteps: true, assess: true },
  tools: ['read_file'],
  limits: {
    maxAsks: 2,
    maxStepRounds: 20,
    maxReplans: 1,
    maxParallelSteps: 3,
    maxToolCallsPerReply: 4,
    maxIdenticalCalls: 2,
    maxToolErrors: 5,
    tokenBudget: 10_000,
    costBudgetUsd: 5,
    maxTokenBudget: 20_000,
    maxCostBudgetUsd: 10,
    deadlineMs: 3_600_000,
    onRoundsExhausted: 'deliver',
  },
  onStepFailure: 'ask',
  onDeadline: 'ask',
  interactionTimeout: { afterMs: 60_000, remindAfterMs: 30_000, onExpiry: 'default' },
  answerRoles: {
    ask: 'approver',
    'plan.check': 'approver',
    'step.failure': 'approver',
    budget: 'admin',
    deadline: 'admin',
    'tool.approval': 'admin',
  },
  nested: false,
  sharedWorkspace: true,
  principal: { id: 'ann', roles: ['operator'], authenticatedBy: 'token' },
  graph: fullGraph,
  graphName: 'review-loop',
  definition: {
    name: 'support',
    version: 'a'.repeat(64),
    label: 'handbook v1',
    content: { name: 'support', description: 'Answers customers', instructions: 'Be brief.' },
  },
  thread: { id: 'thread-notes-1a2b3c4d', turn: 2 },
  context: {
    reusable: [{ agentId: 'thread-notes-1a2b3c4d/turn-1', stepId: 's1', title: 'First', result: 'the first result' }],
    approvals: [fullEarlierApproval],
  },
};

export const fullAgentResults: AgentResult[] = [
  {
    status: 'stopped',
    answer: 'what it had',
    usage: fullUsage,
    stopReason: 'budget',
    steps: [{ id: 's1', title: 'First', result: 'the first result' }],
    approvals: [fullEarlierApproval],
    heard: ['msg-2'],
  },
];

export const fullStepInput: StepInput = {
  version: 1,
  agentId: 'agent-1',
  task: 'a task',
  step: {
    id: 's2',
    title: 'Second',
    description: 'Do the second thing',
    depends_on: ['s1'],
    done_when: 'done',
    reused: { agentId: 'thread-notes-1a2b3c4d/turn-1', stepId: 's2' },
  },
  files: ['inputs/brief.pdf'],
  dependencies: [{ id: 's1', title: 'First', result: 'the first result' }],
  tools: [fullTool],
  approvals: [fullEarlierApproval],
  systemPrompt: 'Be brief.',
  prompts: { 'step.system': 'STEP. {{tools}}' },
  model: fullModel,
  verifyModel: { ...fullModel, temperature: 0 },
  maxStepRounds: 20,
  guards: { maxToolCallsPerReply: 4, maxIdenticalCalls: 2, maxToolErrors: 5 },
  canAsk: true,
  metered: true,
  budgetLeft: { tokens: 900, costUsd: 0.5 },
  principal: { id: 'ann', roles: ['operator'], authenticatedBy: 'token' },
  workspace: 'agent',
  onRoundsExhausted: 'deliver',
  verify: true,
  incoming: [{ text: 'only the markdown ones', by: 'ann', messageId: 'msg-2' }],
  node: { id: 'review', visit: 2, systemPrompt: 'Review the draft.', output: { type: 'object' } },
};

/** One outcome of each status. */
export const fullStepOutcomes: StepOutcome[] = [
  {
    status: 'completed',
    result: 'done',
    output: { approved: true },
    goalCheck: 'it holds',
    delivered: true,
    verified: true,
    sentBack: 1,
    rounds: 2,
    progress: fullProgress,
  },
  { status: 'failed', error: 'too many errors', code: 'STEP_TOOL_ERRORS', rounds: 10, progress: fullProgress },
];

export const fullStepCarry: StepCarry = {
  version: 1,
  rounds: 8,
  conversation: fullConversation,
  held: true,
  sentBack: 1,
  guards: { calls: { 'sha256:abc': 2 }, errors: 1, approvals: { 'sha256:def': 'reject' } },
  left: { tokens: 100, costUsd: 0.1 },
  transcript: {
    rounds: [
      {
        round: 8,
        text: 'I will look it up.',
        reasoning: 'the user wants the key',
        toolCalls: [{ callId: 'c8', name: 'lookup', arguments: '{"key":"a"}', outcome: 'ok', result: 'found' }],
      },
    ],
    droppedRounds: 7,
  },
  incoming: [{ text: 'and skip the drafts', by: 'ann', messageId: 'msg-3' }],
};

export const fullLlmCallInput: LlmCallInput = {
  purpose: 'step',
  ownerId: 'agent-1',
  stepId: 's1',
  messageId: 'msg-1',
  model: fullModel,
  messages: fullConversation,
  conversation: { workflowId: 'agent-1/step-s1', runId: 'run-1', key: 'step', length: 4 },
  toolNames: ['lookup'],
  finishOutput: { type: 'object' },
  json: true,
  schema: 'plan',
};

export const fullLlmCallResult: LlmCallResult = {
  content: 'the answer',
  toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{}' }],
  finishReason: 'length',
  model: 'gpt-test',
  usage: fullUsage,
  streamed: true,
  reasoning: 'first this, then that',
  notices: ['json_schema refused'],
};

/** A live call's identity with every field set. */
export const fullLiveCall: LiveCall = {
  agentId: 'agent-1',
  stepId: 's1',
  messageId: 'msg-1',
  modelCallId: 'agent-1/step-s1/run-1/3',
  attempt: 2,
  purpose: 'step',
};

/** One of each live entry, every field set. */
export const fullLiveEntries: LiveEntry[] = [
  { type: 'delta', channel: 'tool', text: '{"path":', toolCallId: 'c1', toolName: 'write_file' },
  { type: 'call.started', streaming: true, at: 1_700_000_000_000 },
  { type: 'call.finished', outcome: 'failed', finishReason: 'stop', error: 'LLM_UNAVAILABLE', at: 1_700_000_001_000 },
  { type: 'call.superseded', by: 2, at: 1_700_000_002_000 },
];

/** The items of a live stream: one per entry, and its end. */
export const fullLiveItems: LiveItem[] = [
  ...fullLiveEntries.map((entry, i) => ({ offset: 10 + i, key: 'k1', entry })),
  { offset: 14, entry: { type: 'end' as const } },
];

/** A live stream's page with every field set. */
export const fullLivePage: LivePage = {
  items: fullLiveItems,
  calls: { k1: fullLiveCall },
  base: 10,
  next: 15,
  ended: true,
  truncated: true,
  rollover: true,
};

/** A live stream's carry with every field set. */
export const fullLiveCarry: LiveStreamCarry = {
  version: 1,
  items: fullLiveItems,
  base: 10,
  next: 15,
  calls: {
    k1: { call: fullLiveCall, first: 10, open: true },
    k2: { call: { ...fullLiveCall, attempt: 2 }, first: 12, open: false, closedAt: 1_700_000_002_500 },
  },
  publishers: { k1: 3 },
  subscribers: { 'web-1': { from: 12, at: 1_700_000_003_000 } },
  ended: false,
  ending: true,
};
