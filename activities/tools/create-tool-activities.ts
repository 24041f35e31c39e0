/**
 * The tool activities: the catalogue (`listTools`) and one call (`runTool`), which validates
 * the model's arguments before running anything and returns problems as tool errors.
 */
import { Context } from '@temporalio/activity';
import type { ToolCallInput, ToolCallOutcome, ToolInfo } from '../../workflows/tools/tool-types';
import type { ToolRegistry } from './tool-registry';

export interface ToolDeps {
  registry: ToolRegistry;
  workspace: string;
}

export function createToolActivities({ registry, workspace }: ToolDeps) {
  return {
    /** The tools an agent may use: all registered ones, or those on its allow list. */
    listTools(allow?: string[]): Promise<ToolInfo[]> {
      return Promise.resolve(registry.list(allow));
    },
    /** Runs one tool call with its idempotency key `<agent id>/<step id>/<call id>`. */
    async runTool(input: ToolCallInput): Promise<ToolCallOutcome> {
      return registry.run(input.name, input.arguments, {
        workspace,
        idempotencyKey: `${input.agentId}/${input.stepId}/${input.callId}`,
        signal: Context.current().cancellationSignal,
      });
    },
  };
}
