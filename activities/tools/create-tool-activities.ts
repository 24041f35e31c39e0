/**
 * The tool activities: the catalogue (`listTools`) and one call (`runTool`), which validates
 * the model's arguments before running anything, returns problems as tool errors, and cuts
 * long output to head + tail.
 */
import { Context } from '@temporalio/activity';
import { workflowBuiltins } from '../../workflows/tools/builtin-tools';
import { cutOutput } from '../../workflows/tools/cut-output';
import type { ToolCallInput, ToolCallOutcome, ToolInfo } from '../../workflows/tools/tool-types';
import type { ToolRegistry } from './tool-registry';

const HEARTBEAT_EVERY_MS = 1_000;

export interface ToolDeps {
  registry: ToolRegistry;
  workspace: string;
  /** Folder of the idempotency ledger, outside the workspace. */
  ledgerDir: string;
  /** Write tools that run without approval. */
  autoApprove: string[];
}

export function createToolActivities({ registry, workspace, ledgerDir, autoApprove }: ToolDeps) {
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
      return Promise.resolve([...registry.list(allow, autoApprove), ...builtins]);
    },
    /** Runs one tool call with its idempotency key `<agent id>/<step id>/<call id>`. */
    async runTool(input: ToolCallInput): Promise<ToolCallOutcome> {
      const context = Context.current();
      // Heartbeats let Temporal notice a dead worker within the heartbeat timeout (and carry
      // cancellation), instead of waiting out the whole start-to-close timeout.
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      try {
        const outcome = await registry.run(input.name, input.arguments, {
          workspace,
          ledgerDir,
          idempotencyKey: `${input.agentId}/${input.stepId}/${input.callId}`,
          signal: context.cancellationSignal,
        });
        return { ok: outcome.ok, output: cutOutput(outcome.output) };
      } finally {
        clearInterval(beat);
      }
    },
  };
}
