/**
 * Validates a tool call's arguments in workflow code, against the tool's JSON Schema (turned
 * into zod with `z.fromJSONSchema`), before any activity runs or any approval is asked. The
 * errors go back to the model as one `path: message` line each.
 *
 * The only regular expressions this runs are Cairn's own (own-patterns.ts): any other `pattern`,
 * `patternProperties` or `format: "regex"` — a user tool's or an MCP server's that reached the
 * catalogue some other way than the registry (which leaves them out), say a 0.3.0 agent's carried
 * catalogue or a hand-started step — is dropped, never run, since one that backtracks badly
 * would pin the thread every agent of the worker shares. The tool enforces it where it runs.
 * `regex: 'all'` runs the schema as written: the old path of runs recorded before
 * (argument-regex-gate.ts).
 */
import { z } from 'zod';
import { issueLines } from '../base/issue-lines';
import { OWN_PATTERNS } from '../model/tools/own-patterns';
import { withoutRegexKeywords } from '../model/tools/schema-regex';

export type ArgumentCheck = { ok: true; value: unknown } | { ok: false; error: string };

/** Which regular expressions of a schema run: Cairn's own only, or all (runs recorded before). */
export type RegexRun = 'own' | 'all';

const cache: Record<string, z.ZodType | null> = {};

/** The zod schema of a JSON Schema, converted once (keyed by the schema text and `regex`). */
function schemaFor(parameters: Record<string, unknown>, regex: RegexRun): z.ZodType | null {
  const key = `${regex} ${JSON.stringify(parameters)}`;
  if (!(key in cache)) {
    try {
      cache[key] = z.fromJSONSchema(regex === 'all' ? parameters : withoutRegexKeywords(parameters, OWN_PATTERNS));
    } catch {
      cache[key] = null; // a schema zod cannot read: the tool itself validates
    }
  }
  return cache[key] ?? null;
}

/** Parses and checks `raw` (the JSON text the model wrote) for tool `name`. */
export function validateArguments(
  name: string,
  parameters: Record<string, unknown>,
  raw: string,
  regex: RegexRun = 'own',
): ArgumentCheck {
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return { ok: false, error: `invalid arguments for ${name}: not valid JSON` };
  }
  const schema = schemaFor(parameters, regex);
  if (!schema) return { ok: true, value };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const lines = issueLines(parsed.error, '(arguments)');
  return { ok: false, error: `invalid arguments for ${name}:\n${lines.join('\n')}` };
}
