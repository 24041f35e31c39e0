/**
 * The `finish_step` tool (docs/contracts.md#llm-protocol): how a step's model hands back its
 * result — and, for an agent graph node that declares one, its structured `output`, checked
 * against the node's JSON Schema (the model hears every mismatch and tries again).
 */
import { z } from 'zod';
import { issueLines } from '../../base/issue-lines';
import type { LlmToolSpec } from '../llm/llm-types';
import { withoutRegexKeywords } from './schema-regex';

export const finishStepArgsSchema = z.object({
  result: z.string().min(1, 'the result is empty').describe('The outcome of the step, complete and self-contained.'),
  goal_check: z.string().max(2_000).optional().describe("How the step's done-when condition holds, when it has one."),
});

/** What a `finish_step` call hands back besides its result: a node's output, a goal check. */
export interface FinishExtras {
  output?: unknown;
  goalCheck?: string;
}

/**
 * The longest string a node's structured output may hold, in characters, wherever it sits (an
 * object's keys included). Checked before the schema is, so no check ever walks a longer one;
 * the step's `result` is the place for long text.
 */
export const OUTPUT_STRING_MAX = 10_000;

/** A JSON Schema, as a graph node declares its output. */
export type OutputSchema = Record<string, unknown>;

const OUTPUT_DESCRIPTION = 'The structured output this step must hand back, matching its schema exactly.';

/** The tool as offered to the model (built on demand: only the LLM activity needs it); with `output` when a schema is given. */
export function finishStepTool(output?: OutputSchema): LlmToolSpec {
  const parameters = z.toJSONSchema(finishStepArgsSchema) as { properties?: object; required?: string[] };
  return {
    name: 'finish_step',
    description:
      'Call when the step is done, with its result. The result is all that later steps and the final answer will see.',
    parameters: output
      ? {
          ...parameters,
          properties: { ...parameters.properties, output: { ...output, description: OUTPUT_DESCRIPTION } },
          required: [...(parameters.required ?? []), 'output'],
        }
      : parameters,
  };
}

/** Parsed `finish_step` arguments: the result, and the output when a schema asked for one. */
export type FinishStepArgs = ({ ok: true; result: string } & FinishExtras) | { ok: false; error: string };

/** Parses `finish_step` arguments; with `output`, the `output` argument must match it. Errors as `path: message`. */
export function parseFinishStepArgs(raw: string, output?: OutputSchema): FinishStepArgs {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'the arguments are not valid JSON' };
  }
  const parsed = finishStepArgsSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: issueLines(parsed.error, '(arguments)').join('; ') };
  const goal = parsed.data.goal_check?.trim() ? { goalCheck: parsed.data.goal_check.trim() } : {};
  if (!output) return { ok: true, result: parsed.data.result, ...goal };
  const given = typeof value === 'object' && value !== null ? (value as { output?: unknown }).output : undefined;
  if (given === undefined) return { ok: false, error: 'output: this step must hand back its structured output' };
  const long = longStringPath(given, 'output');
  if (long) return { ok: false, error: `${long}: longer than ${OUTPUT_STRING_MAX} characters` };
  const checked = outputChecker(output).safeParse(given);
  if (!checked.success) return { ok: false, error: issueLines(checked.error, 'output', 'output').join('; ') };
  return { ok: true, result: parsed.data.result, output: given, ...goal };
}

/** The path of the first string (value or key) in `value` longer than {@link OUTPUT_STRING_MAX}. */
export function longStringPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.length > OUTPUT_STRING_MAX ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = longStringPath(item, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.length > OUTPUT_STRING_MAX) return `${path} (a key)`;
    const found = longStringPath(item, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

/**
 * The zod schema of a node's output JSON Schema (checked valid when the graph was). A regular
 * expression in it is dropped, never run: the graph rules refuse such a schema, and one that
 * reached a running agent some other way still cannot pin the workflow thread.
 */
export function outputChecker(output: OutputSchema): z.ZodType {
  return z.fromJSONSchema(withoutRegexKeywords(output));
}
