/**
 * Loads user tools (docs/contracts.md#tools): modules named in CAIRN_TOOLS whose exports are tools made
 * with `defineTool`. Every export that looks like a tool is checked against the tool shape
 * before the worker starts, so a typo fails at start with the module and the field named,
 * not at the first call. Modules are loaded with `import()`: TypeScript works because the
 * worker runs under tsx (and jest transforms it in tests); JavaScript works anywhere.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { issueLines } from '../../workflows/base/issue-lines';
import type { ToolDefinition } from './define-tool';

/** OpenAI's rule for function names, which every tool name must follow. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Duck-typed function check; zod's own `z.function()` is a factory, not a value schema. */
const fn = (what: string) => z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', what);

/**
 * The tool shape. `input` is checked by duck type (`safeParse`), because a module may bring
 * its own copy of zod and `instanceof` fails across copies.
 */
const toolShape = z.object({
  name: z.string({ error: 'expected a string' }).regex(TOOL_NAME_PATTERN, 'expected 1-64 letters, digits, "_" or "-"'),
  description: z.string({ error: 'expected a string' }).trim().min(1, 'expected a non-empty description'),
  input: z.custom<z.ZodType>(
    (v) => typeof v === 'object' && v !== null && typeof (v as { safeParse?: unknown }).safeParse === 'function',
    'expected a zod schema (an object with safeParse)',
  ),
  parameters: z.record(z.string(), z.unknown(), { error: 'expected a JSON Schema object' }).optional(),
  timeoutMs: z.number().int().positive('expected a timeout above 0').optional(),
  effect: z.enum(['read', 'write'], { error: 'expected "read" or "write"' }),
  idempotent: z.boolean({ error: 'expected true or false' }).optional(),
  run: fn('expected a function (args, context) => Promise<string>'),
});

/** An export found in a module, with the name it was exported under. */
interface Candidate {
  exportName: string;
  value: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** True for values meant as tools: anything with `run` or `effect`, even if malformed. */
function looksLikeTool(value: unknown): boolean {
  return isObject(value) && !Array.isArray(value) && ('run' in value || 'effect' in value);
}

/**
 * The exports that should be tools: named tool-like exports, and the default export when it
 * is a tool or an array. A default that is a plain object (CommonJS `module.exports`, or an
 * `__esModule` wrapper) is searched like a module namespace, once.
 */
function collectCandidates(namespace: Record<string, unknown>, nested = false): Candidate[] {
  const found: Candidate[] = [];
  for (const [exportName, value] of Object.entries(namespace)) {
    if (exportName === 'default' && Array.isArray(value)) {
      value.forEach((item: unknown, i) => found.push({ exportName: `default[${i}]`, value: item }));
    } else if (looksLikeTool(value)) {
      found.push({ exportName, value });
    } else if (exportName === 'default' && isObject(value) && !nested) {
      found.push(...collectCandidates(value, true).map((c) => ({ ...c, exportName: `default.${c.exportName}` })));
    }
  }
  return found;
}

/** Checks one export; throws naming the module, the export and the bad field. */
function checkTool(modulePath: string, { exportName, value }: Candidate): ToolDefinition {
  const where = `user tool module "${modulePath}", export "${exportName}"`;
  const parsed = toolShape.safeParse(value);
  if (!parsed.success) throw new Error(`${where}: ${issueLines(parsed.error, '(export)').join('; ')}`);
  const tool = value as ToolDefinition;
  if (tool.parameters === undefined) {
    // The registry derives the model's schema from `input`; find an unrepresentable one now.
    try {
      z.toJSONSchema(tool.input);
    } catch (err) {
      throw new Error(`${where}: input: cannot be turned into JSON Schema (${errorText(err)})`, { cause: err });
    }
  }
  return tool;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Imports one module and returns its checked tools; a module without tools is an error. */
async function loadModule(modulePath: string, cwd: string): Promise<ToolDefinition[]> {
  const file = resolve(cwd, modulePath);
  if (!existsSync(file)) throw new Error(`user tool module "${modulePath}" not found (looked at ${file})`);
  let namespace: unknown;
  try {
    namespace = await import(file);
  } catch (err) {
    throw new Error(`user tool module "${modulePath}" failed to load: ${errorText(err)}`, { cause: err });
  }
  const candidates = isObject(namespace) ? collectCandidates(namespace) : [];
  const seen = new Set<unknown>();
  const tools: ToolDefinition[] = [];
  for (const candidate of candidates) {
    // The same tool may be both a named export and part of the default array.
    if (seen.has(candidate.value)) continue;
    seen.add(candidate.value);
    tools.push(checkTool(modulePath, candidate));
  }
  if (tools.length === 0) {
    throw new Error(
      `user tool module "${modulePath}" exports no tools (export tools made with defineTool, or a default array of them)`,
    );
  }
  return tools;
}

/**
 * Loads the tools exported by each module.
 * @param modulePaths module files, relative to `cwd` or absolute (`.ts` under tsx, or `.js`).
 * @param cwd base folder for relative paths.
 * @returns every tool, in module order then export order.
 * @throws Error naming the module (and the export and field) when a module cannot be loaded,
 *   exports no tools or a malformed one, or when two tools share a name.
 */
export async function loadUserTools(modulePaths: string[], cwd: string): Promise<ToolDefinition[]> {
  const owners = new Map<string, string>();
  const all: ToolDefinition[] = [];
  for (const modulePath of modulePaths) {
    for (const tool of await loadModule(modulePath, cwd)) {
      const owner = owners.get(tool.name);
      if (owner !== undefined) {
        const place = owner === modulePath ? `twice by "${modulePath}"` : `by both "${owner}" and "${modulePath}"`;
        throw new Error(`user tool name "${tool.name}" is exported ${place}`);
      }
      owners.set(tool.name, modulePath);
      all.push(tool);
    }
  }
  return all;
}
