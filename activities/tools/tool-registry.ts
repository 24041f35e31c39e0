/**
 * The tool registry: looks tools up by name, derives the model's JSON Schemas from their zod
 * inputs (never a hand-written copy), and runs a call after validating its arguments.
 */
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { createRedactor, type Redactor } from '../../config/redact-secrets';
import { issueLines } from '../../workflows/base/issue-lines';
import type { LlmToolSpec } from '../../workflows/model/llm/llm-types';
import type { ErrorCode } from '../../workflows/base/error-codes';
import type { ToolCallOutcome, ToolInfo } from '../../workflows/model/tools/tool-types';
import type { ToolContext, ToolDefinition } from './define-tool';
import { workflowParameters } from './tool-schema-regex';

export interface ToolRegistry {
  /**
   * The catalogue, limited to `allow` when given; `autoApprove` write tools need no approval.
   * Workflow code checks calls against its schemas, so only a built-in's keep their regular
   * expressions (Cairn's own); every other tool's are left out (tool-schema-regex.ts).
   */
  list(allow?: string[], autoApprove?: string[]): ToolInfo[];
  /** The model-facing spec of a registered tool. */
  spec(name: string): LlmToolSpec | undefined;
  /** Validates `rawArguments` and runs the tool; problems come back as `ok: false`. */
  run(name: string, rawArguments: string, context: ToolContext): Promise<ToolCallOutcome>;
}

/** The model-facing JSON Schema: passed through when given, else derived from the zod input (what `spec` offers). */
function parametersOf(tool: ToolDefinition): Record<string, unknown> {
  return tool.parameters ?? z.toJSONSchema(tool.input);
}

/**
 * Builds a registry; duplicate names are a programming error.
 * @param redact removes secrets from a failed tool's error text before the model (and so the
 *   history) sees it; by default credential-shaped text only.
 * @param builtin the names of Cairn's built-in tools, whose schemas reach workflow code whole.
 */
export function createToolRegistry(
  tools: ToolDefinition[],
  redact: Redactor = createRedactor([]),
  builtin: readonly string[] = [],
): ToolRegistry {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`two tools are named "${tool.name}"`);
    byName.set(tool.name, tool);
  }
  return {
    list: (allow, autoApprove = []) =>
      [...byName.values()]
        .filter((t) => !allow || allow.includes(t.name))
        .map((t) => ({
          name: t.name,
          description: t.description,
          effect: t.effect,
          idempotent: t.idempotent ?? t.effect === 'read',
          needsApproval: t.effect === 'write' && !autoApprove.includes(t.name),
          ...(t.effect === 'write' && autoApprove.includes(t.name) ? { autoApproved: true } : {}),
          parameters: builtin.includes(t.name) ? parametersOf(t) : workflowParameters(parametersOf(t)),
          ...(t.readWhen ? { readWhen: t.readWhen } : {}),
        })),
    spec(name) {
      const tool = byName.get(name);
      return tool && { name: tool.name, description: tool.description, parameters: parametersOf(tool) };
    },
    async run(name, rawArguments, context) {
      const tool = byName.get(name);
      if (!tool) return { ok: false, output: `unknown tool "${name}"` };
      let value: unknown;
      try {
        value = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
      } catch {
        return { ok: false, output: `invalid arguments for ${name}: not valid JSON` };
      }
      const parsed = tool.input.safeParse(value);
      if (!parsed.success) {
        const lines = issueLines(parsed.error, '(arguments)');
        return { ok: false, output: `invalid arguments for ${name}:\n${lines.join('\n')}` };
      }
      try {
        const result = await tool.run(parsed.data, context);
        return typeof result === 'string' ? { ok: true, output: result } : { ok: true, ...result };
      } catch (err) {
        const text = redact(`${name} failed: ${err instanceof Error ? err.message : String(err)}`);
        // A failure the tool marks retryable (a timeout, a 5xx, a 429) fails the activity, so its
        // retry policy applies; anything else goes back to the model as a tool error.
        if (err instanceof ApplicationFailure && !err.nonRetryable) throw transientFailure(text, err);
        return { ok: false, output: text };
      }
    },
  };
}

/** The activity failure for a tool's transient error, keeping a retry delay it gave in milliseconds. */
function transientFailure(message: string, cause: ApplicationFailure): ApplicationFailure {
  const code: ErrorCode = 'TOOL_UNAVAILABLE';
  const delay: unknown = cause.nextRetryDelay;
  return ApplicationFailure.create({
    type: code,
    message,
    ...(typeof delay === 'number' ? { nextRetryDelay: delay } : {}),
  });
}
