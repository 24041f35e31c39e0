/**
 * Validates a tool call's arguments in workflow code, against the tool's JSON Schema (turned
 * into zod with `z.fromJSONSchema`), before any activity runs or any approval is asked. The
 * errors go back to the model as one `path: message` line each.
 */
import { z } from 'zod';
import { issueLines } from '../issue-lines';

export type ArgumentCheck = { ok: true; value: unknown } | { ok: false; error: string };

const cache: Record<string, z.ZodType | null> = {};

/** The zod schema of a JSON Schema, converted once (keyed by the schema text itself). */
function schemaFor(parameters: Record<string, unknown>): z.ZodType | null {
  const key = JSON.stringify(parameters);
  if (!(key in cache)) {
    try {
      cache[key] = z.fromJSONSchema(parameters);
    } catch {
      cache[key] = null; // a schema zod cannot read: the tool itself validates
    }
  }
  return cache[key] ?? null;
}

/** Parses and checks `raw` (the JSON text the model wrote) for tool `name`. */
export function validateArguments(name: string, parameters: Record<string, unknown>, raw: string): ArgumentCheck {
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return { ok: false, error: `invalid arguments for ${name}: not valid JSON` };
  }
  const schema = schemaFor(parameters);
  if (!schema) return { ok: true, value };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const lines = issueLines(parsed.error, '(arguments)');
  return { ok: false, error: `invalid arguments for ${name}:\n${lines.join('\n')}` };
}
