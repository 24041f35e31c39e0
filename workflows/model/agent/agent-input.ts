/**
 * The agent workflow's input (docs/contracts.md#agent-input): one zod schema that fills the
 * defaults, shared by the workflow (which validates again, so the Temporal UI and the CLI
 * cannot start a broken agent) and every client.
 */
import { promptTextsSchema } from '../prompts/prompt-texts';
import { modelStagesSchema } from '../llm/model-stages';
import { z } from 'zod';
import { answerRolesSchema } from '../interactions/answer-roles';
import { modelSettingsSchema } from '../llm/llm-types';
import { principalSchema } from '../principal';
import { definitionSnapshotSchema } from './definition-snapshot';
import { DEFAULT_LOOP_GUARDS } from '../../base/loop-guard-limits';
import { graphSchema } from '../graph/graph-schema';
import { checkGraphRules } from '../graph/graph-rules';
import { MAX_REUSABLE_STEPS, reusableStepSchema } from '../plan/plan-reuse';
import { earlierApprovalSchema, MAX_EARLIER_APPROVALS } from '../tools/approval-reuse';

const limitsSchema = z.object({
  /** Clarifying questions while planning; the mission caps it at 3. */
  maxAsks: z.number().int().min(0).max(3).default(3),
  maxStepRounds: z.number().int().min(1).max(1000).default(30),
  maxReplans: z.number().int().min(0).max(20).default(2),
  maxParallelSteps: z.number().int().min(1).max(100).default(4),
  /** Tool calls of one model reply that run; the rest are answered with an error saying why. */
  maxToolCallsPerReply: z.number().int().min(1).max(100).default(DEFAULT_LOOP_GUARDS.maxToolCallsPerReply),
  /** How often one step may make the same call (tool and arguments); further ones are refused. */
  maxIdenticalCalls: z.number().int().min(1).max(1000).default(DEFAULT_LOOP_GUARDS.maxIdenticalCalls),
  /** Failed or refused tool calls after which a step fails with STEP_TOOL_ERRORS. */
  maxToolErrors: z.number().int().min(1).max(10_000).default(DEFAULT_LOOP_GUARDS.maxToolErrors),
  tokenBudget: z.number().int().positive().optional(),
  /** Like tokenBudget, in US dollars from the price table (a model without a price never reaches it). */
  costBudgetUsd: z.number().positive().max(1_000_000).optional(),
  /**
   * The most a raise of the budget may set (tokens, US dollars): an answer above it is refused,
   * and an agent whose budget is already there stops at it instead of asking, as a nested agent
   * does. A thread gives its turn what the thread's budget has left (thread-budget.ts).
   */
  maxTokenBudget: z.number().int().positive().optional(),
  maxCostBudgetUsd: z.number().positive().max(1_000_000).optional(),
  deadlineMs: z.number().int().positive().optional(),
  /** A step at `maxStepRounds` without a finish: `fail` it, or `deliver` its best answer from one last call without tools. */
  onRoundsExhausted: z.enum(['fail', 'deliver']).default('fail'),
});

export const agentInputSchema = z.object({
  task: z.string().trim().min(1, 'the task is empty').max(20_000),
  systemPrompt: z.string().max(20_000).optional(),
  files: z.array(z.string().min(1)).max(50).optional(),
  model: modelSettingsSchema.optional(),
  /** Settings of one stage's calls over `model` (plan, step, summary, route, verify), e.g. from a definition. */
  modelStages: modelStagesSchema.optional(),
  /**
   * Built-in prompt templates replaced for this agent (a definition's `prompts.templates`), over
   * the operator's CAIRN_PROMPTS_FILE; checked where they are written, as that file is.
   */
  prompts: promptTextsSchema.optional(),
  mode: z
    .object({
      plan: z.boolean().default(true),
      ask: z.boolean().default(false),
      confirmPlan: z.boolean().default(false),
      /**
       * When the planner revises the remaining steps: after the steps the plan lists in `replan`
       * (`listed`, at most `limits.maxReplans`), or after every completed step (`each`, no cap).
       */
      replanAfter: z.enum(['listed', 'each']).default('listed'),
      /** A `verify` call checks each finished step and may send it back with feedback (at most twice). */
      verifySteps: z.boolean().default(false),
      /** An `assess` call first: simple tasks run as one step, complex ones plan with reasoning turned up. */
      assess: z.boolean().default(false),
    })
    .prefault({}),
  /** Allow list of tool names; absent means every registered tool. */
  tools: z.array(z.string().min(1)).max(100).optional(),
  limits: limitsSchema.prefault({}),
  onStepFailure: z.enum(['fail', 'continue', 'ask']).default('fail'),
  /** At `limits.deadlineMs`: `stop` the agent, or `ask` a person (extend / stop). */
  onDeadline: z.enum(['stop', 'ask']).default('stop'),
  /**
   * How long a question may wait for a human, and what happens then: `reject`
   * declines (approvals rejected, plan check cancelled, failed step aborted, questions get "no
   * answer"), `default` takes the safe default (plan confirmed, failed step skipped, form
   * defaults), `fail` fails the step or agent that asked, `cancel` cancels the whole agent.
   */
  interactionTimeout: z
    .object({
      afterMs: z.number().int().min(1000),
      remindAfterMs: z.number().int().min(1000).optional(),
      onExpiry: z.enum(['reject', 'default', 'fail', 'cancel']).default('reject'),
    })
    .optional(),
  /** Who may answer its interactions, by kind (answer-roles.ts); absent: `approver`. */
  answerRoles: answerRolesSchema.optional(),
  /** Set for agents started by the `sub_agent` tool: they never wait for a plan check (refused in an HTTP start). */
  nested: z.boolean().default(false),
  /**
   * Set by the step that starts a nested agent when its own agent works in the shared workspace
   * root (started before per-agent workspaces): the nested agent works there too. The HTTP API
   * refuses it in a start's body.
   */
  sharedWorkspace: z.literal(true).optional(),
  /**
   * Who started the agent, set by Cairn's HTTP API from the signed-in principal (refused in a
   * start's body): the principal approval policies judge calls for. Absent: nobody signed in.
   */
  principal: principalSchema.optional(),
  /**
   * A developer-defined agent graph (docs/graphs.md): its nodes run instead of a plan. Captured
   * at start, so a later edit of the graph never changes a running agent.
   */
  graph: graphSchema.optional(),
  /**
   * The name the graph was registered under (`defineGraph`), kept for display. Clients resolve
   * it into `graph` before they start the agent; a name alone is refused (workflow code reads no files).
   */
  graphName: z.string().trim().min(1).max(100).optional(),
  /**
   * The definition it was started from (contract/definition-snapshot.ts), set by the client that
   * filled the fields above from it; a start's body names a definition, never sends one.
   */
  definition: definitionSnapshotSchema.optional(),
  /**
   * Set when the agent runs a turn of a thread (threadWorkflow): its result then also lists its
   * steps with their cut results, which the thread gives its later turns as context. Honoured,
   * with `context`, only in the thread's own turn (agent/thread-trust.ts).
   */
  thread: z.object({ id: z.string().min(1).max(300), turn: z.number().int().min(1) }).optional(),
  /**
   * What a thread's earlier turns leave this one (set by threadWorkflow): `reusable`, their
   * finished steps, which its plan may adopt with `reuse` instead of running them again, and
   * `approvals`, the calls people approved (model/tools/approval-reuse.ts).
   */
  context: z
    .object({
      reusable: z.array(reusableStepSchema).max(MAX_REUSABLE_STEPS).default([]),
      /** Tool calls people approved in earlier turns: the same call under the same policy outcome is not asked again. */
      approvals: z.array(earlierApprovalSchema).max(MAX_EARLIER_APPROVALS).default([]),
    })
    .optional(),
});

/** The planning modes a graph agent refuses: its nodes, not a planner, decide what runs. */
export const GRAPH_REFUSED_MODES = ['plan', 'ask', 'assess', 'replanAfter'] as const;

/** Rules across fields, on the input as sent: a graph's own rules, and the planning modes it refuses. */
function crossFieldProblems(value: unknown, settings: AgentSettings): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (settings.graphName !== undefined && !settings.graph)
    problems.push({
      path: 'graphName',
      message: 'a graph name must be resolved into `graph` by the client that starts the agent',
    });
  if (!settings.graph) return problems;
  const mode = isRecord(value) && isRecord(value['mode']) ? value['mode'] : {};
  for (const key of GRAPH_REFUSED_MODES)
    if (Object.hasOwn(mode, key)) problems.push({ path: `mode.${key}`, message: 'is not allowed with a graph' });
  for (const problem of checkGraphRules(settings.graph))
    problems.push({ path: problem.path, message: `${problem.message} (${problem.rule})` });
  return problems;
}

/** A graph's `timeoutMs` acts as `limits.deadlineMs` (an explicit deadline wins). */
function withGraphTimeout(settings: AgentSettings): AgentSettings {
  const timeoutMs = settings.graph?.timeoutMs;
  if (timeoutMs === undefined || settings.limits.deadlineMs !== undefined) return settings;
  return { ...settings, limits: { ...settings.limits, deadlineMs: timeoutMs } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What callers send (defaults optional). */
export type AgentInput = z.input<typeof agentInputSchema>;
/** The input with every default filled in. */
export type AgentSettings = z.output<typeof agentInputSchema>;

/** Parses the input; errors come back as `path: message` lines, `field` the first one's path. */
export function parseAgentInput(
  value: unknown,
): { ok: true; settings: AgentSettings } | { ok: false; errors: string[]; field: string } {
  const parsed = agentInputSchema.safeParse(value);
  if (parsed.success) {
    const problems = crossFieldProblems(value, parsed.data);
    if (problems.length === 0) return { ok: true, settings: withGraphTimeout(parsed.data) };
    return { ok: false, errors: problems.map((p) => `${p.path}: ${p.message}`), field: problems[0]?.path ?? '' };
  }
  return {
    ok: false,
    errors: parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`),
    field: parsed.error.issues[0]?.path.join('.') ?? '',
  };
}
