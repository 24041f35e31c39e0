/**
 * The rules the web page runs in the browser, taken from the workflow code instead of written
 * again: the form rules an `ask.form` answer must meet (workflows/model/interactions/validate-form.ts,
 * the very functions the agent's answer check calls), the phases in which an agent has ended
 * and the workflow ids of its steps, how a state reads to people (client/status-display.ts,
 * which the CLI uses too), how an agent graph reads (client/graphs/graph-display.ts: condition
 * labels, node marks, loops, visits, path lines — the CLI's words too), and how a server-sent
 * events frame reads (client/sse-frame.ts, the CLI's stream reader's too). The server bundles
 * this file into one ES module, `/web/rules.js`, on first request (client/http/browser-module.ts);
 * the page's modules import it.
 */
import type { FormField } from '../../workflows/model/interactions/interaction-types';
import { validateFormValues, type FieldValue } from '../../workflows/model/interactions/validate-form';

export { TERMINAL_PHASES, isTerminalPhase } from '../../workflows/model/state/agent-phases';
export { stepWorkflowId } from '../../workflows/base/ids';
export { parseFrame, readSseFrames } from '../sse-frame';
export {
  conditionText,
  droppedLine,
  graphBounds,
  loopEdges,
  nodeMarks,
  nodeStates,
  pathLine,
  takenEdges,
} from '../graphs/graph-display';
export { noAnswerText, showsWaitingBadge, statusClass, stepDisplayStatus, stepHasWorkflow } from '../status-display';

/** One field's value checked: what to send (nothing for an empty optional field), or the broken rule. */
export type FieldVerdict = { ok: true; value?: FieldValue } | { ok: false; error: string };

/**
 * Checks one field's value by the form rules, as the agent will when the whole answer arrives:
 * required, type, limits and options, text trimmed, an empty optional field given its default.
 * @param value the value as the field's type takes it (a number field's value a number).
 */
export function checkFormField(field: FormField, value: unknown): FieldVerdict {
  // fromEntries defines an own property, so a field named `__proto__` stays a plain key.
  const checked = validateFormValues([field], Object.fromEntries(value === undefined ? [] : [[field.key, value]]));
  if (checked.ok) return { ok: true, value: checked.values[field.key] };
  // The rules name the path (`values.<key>: …`); the page shows the message under the field.
  const path = `values.${field.key}: `;
  return { ok: false, error: checked.errors.map((e) => (e.startsWith(path) ? e.slice(path.length) : e)).join('; ') };
}
