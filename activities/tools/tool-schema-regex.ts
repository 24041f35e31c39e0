/**
 * Tool parameter schemas with regular expressions (`pattern`, `patternProperties`,
 * `format: "regex"`; workflows/model/tools/schema-regex.ts). Workflow code checks a call's arguments
 * against the catalogue's schema before anything runs, and a regular expression there — a user
 * tool's, an MCP server's — would run on the thread every agent of the worker shares. So the
 * catalogue the workflow gets carries the schema without them, while the model is still offered
 * the schema as written: the tool enforces them where it runs (a defineTool tool's zod input in
 * the registry, an MCP server on its side), outside workflow code. The worker says so at start,
 * one line per such tool. A built-in tool's expressions are Cairn's own, written not to
 * backtrack, and stay: `http_fetch`'s header rules refuse a CR or LF in workflow code, before an
 * approval is ever asked for such a call.
 */
import { z } from 'zod';
import { regexKeywordPaths, withoutRegexKeywords } from '../../workflows/model/tools/schema-regex';
import type { ToolDefinition } from './define-tool';

/** The schema the workflow validates a call with: `parameters` without regular expressions. */
export function workflowParameters(parameters: Record<string, unknown>): Record<string, unknown> {
  return regexKeywordPaths(parameters).length === 0 ? parameters : withoutRegexKeywords(parameters);
}

/** The tool's JSON Schema, or undefined for an input that has none (listing the catalogue reports that). */
function describable(
  parameters: Record<string, unknown> | undefined,
  input: z.ZodType,
): Record<string, unknown> | undefined {
  if (parameters) return parameters;
  try {
    return z.toJSONSchema(input);
  } catch {
    return undefined;
  }
}

/**
 * One start-up line per tool whose schema runs a regular expression, naming where. A tool whose
 * input has no JSON Schema form is no business of this note: the catalogue's listing fails on it,
 * as it always has, where the agent that asks for it sees why.
 */
export function regexToolNotes(tools: readonly ToolDefinition[]): string[] {
  return tools.flatMap(({ name, parameters, input }) => {
    const schema = describable(parameters, input);
    const paths = schema ? regexKeywordPaths(schema) : [];
    if (paths.length === 0) return [];
    return [
      `tool "${name}": its parameters use regular expressions (${paths.join(', ')}); ` +
        'workflow code checks its calls without them, and only the tool itself enforces them when it runs',
    ];
  });
}
