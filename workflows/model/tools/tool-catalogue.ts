/**
 * The tool catalogue as the model reads it in planner and step prompts: one line per tool with
 * its effect. Pure.
 */
import type { ToolInfo } from './tool-types';

/** `read`, `write`, or for a tool whose calls differ e.g. `write unless method is GET or HEAD`. */
function effectOf({ effect, readWhen }: ToolInfo): string {
  return readWhen ? `${effect} unless ${readWhen.argument} is ${readWhen.values.join(' or ')}` : effect;
}

/** One line per tool: `- name (effect): description`. */
export function toolCatalogue(tools: ToolInfo[]): string {
  if (tools.length === 0) return '(no tools: steps can only reason and answer)';
  return tools.map((t) => `- ${t.name} (${effectOf(t)}): ${t.description}`).join('\n');
}
