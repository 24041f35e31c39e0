/**
 * The tool activities: the catalogue (`listTools`) and one call (`runTool`), which validates
 * the model's arguments before running anything, returns problems as tool errors, and cuts
 * long output to head + tail.
 */
import { mkdir } from 'node:fs/promises';
import { Context } from '@temporalio/activity';
import { agentWorkspaceDir } from '../../config/agent-workspace';
import { workflowBuiltins } from '../../workflows/model/tools/builtin-tools';
import { cutOutput } from '../../workflows/model/tools/cut-output';
import type { ToolCallInput, ToolCallOutcome, ToolInfo } from '../../workflows/model/tools/tool-types';
import type { ToolRegistry } from './tool-registry';
import type { ApprovalPolicy } from '../policy/approval-policy';
import { DEFAULT_RULE, type PolicyCallInput, type PolicyDecision } from '../../workflows/model/tools/policy-decision';
import {
  previewCallInputSchema,
  type ApprovalPreview,
  type PreviewCallInput,
} from '../../workflows/model/tools/approval-preview';
import { previewCall } from './preview-call';

const HEARTBEAT_EVERY_MS = 1_000;

export interface ToolDeps {
  registry: ToolRegistry;
  /** The workspace root (CAIRN_WORKSPACE): each agent's own folder lies below it. */
  workspace: string;
  /** Folder of the idempotency ledger, outside the workspace. */
  ledgerDir: string;
  /** Write tools that run without approval. */
  autoApprove: string[];
  /** The approval policy: with it, each call of a registered tool is decided by `decideToolCall`. */
  policy?: ApprovalPolicy;
}

/**
 * The folder a call works in: with scope `agent`, the agent's own folder below the root (made
 * when missing); without it — steps of agents started before per-agent folders — the root.
 */
async function workspaceOf(root: string, call: { agentId?: string; scope?: 'agent' }): Promise<string> {
  if (call.scope !== 'agent' || call.agentId === undefined) return root;
  const dir = agentWorkspaceDir(root, call.agentId);
  await mkdir(dir, { recursive: true });
  return dir;
}

export function createToolActivities({ registry, workspace, ledgerDir, autoApprove, policy }: ToolDeps) {
  return {
    /** The tools an agent may use: built-ins and registered ones, or those on its allow list. */
    listTools(allow?: string[]): Promise<ToolInfo[]> {
      const builtins = Object.values(workflowBuiltins())
        .filter((t) => !allow || allow.includes(t.name))
        .map(({ name, description, effect, idempotent, needsApproval, parameters }) => ({
          name,
          description,
          effect,
          idempotent,
          needsApproval,
          parameters,
        }));
      // With a policy, the policy decides each call (CAIRN_AUTO_APPROVE is one of its rules).
      const registered = policy
        ? registry.list(allow).map((t) => ({ ...t, policy: true }))
        : registry.list(allow, autoApprove);
      return Promise.resolve([...registered, ...builtins]);
    },
    /** The approval policy's decision on one call, with the rule that made it. */
    decideToolCall(input: PolicyCallInput): Promise<PolicyDecision> {
      // A catalogue marked for a policy outlived it (the worker restarted without one): a person decides writes.
      if (!policy) return Promise.resolve({ decision: input.effect === 'write' ? 'ask' : 'allow', rule: DEFAULT_RULE });
      return Promise.resolve(policy.decide(input));
    },
    /** How a write awaiting approval would change its file (a diff), for the people deciding; null when unknown. */
    async previewToolCall(input: PreviewCallInput): Promise<ApprovalPreview | null> {
      const call = previewCallInputSchema.parse(input);
      return previewCall(await workspaceOf(workspace, call), call);
    },
    /**
     * Runs one tool call with its idempotency key `<agent id>/<step id>/<call id>` (the ledger
     * lies outside the workspace root, so outside every agent's folder).
     */
    async runTool(input: ToolCallInput): Promise<ToolCallOutcome> {
      const context = Context.current();
      // Heartbeats let Temporal notice a dead worker within the heartbeat timeout (and carry
      // cancellation), instead of waiting out the whole start-to-close timeout.
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      try {
        const outcome = await registry.run(input.name, input.arguments, {
          workspace: await workspaceOf(workspace, input),
          ledgerDir,
          idempotencyKey: `${input.agentId}/${input.stepId}/${input.callId}`,
          signal: context.cancellationSignal,
        });
        return {
          ok: outcome.ok,
          output: cutOutput(outcome.output),
          // An image read in the agent's own folder is loaded from there for the model.
          ...(outcome.image ? { image: { ...outcome.image, ...(input.scope ? { scope: input.scope } : {}) } } : {}),
        };
      } finally {
        clearInterval(beat);
      }
    },
  };
}
