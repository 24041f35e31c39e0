/**
 * A real registry tool for tests: looks a key up in a table and counts its calls, so tests can
 * show tool calls running as activities exactly as often as they should.
 */
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../activities/tools/define-tool';

export interface LookupTool {
  tool: ToolDefinition;
  calls: { key: string; idempotencyKey: string }[];
}

export function lookupTool(table: Record<string, string> = {}): LookupTool {
  const calls: LookupTool['calls'] = [];
  const tool = defineTool({
    name: 'lookup',
    description: 'Look a key up in the reference table.',
    effect: 'read',
    input: z.object({ key: z.string().min(1) }),
    run({ key }, { idempotencyKey }) {
      calls.push({ key, idempotencyKey });
      return Promise.resolve(table[key] ?? `value-of-${key}`);
    },
  });
  return { tool, calls };
}
