/**
 * The `model` label of the LLM metrics and spans. An agent's input names any model it likes —
 * free text, kept encrypted in history when keys are set — so using it as a label showed on
 * `/metrics` what encryption hides and let one agent per name add series without bound. The
 * label is the name only when the worker's configuration knows it (CAIRN_MODEL, a model of
 * CAIRN_LLM_MODELS or of the price table, the offline demo model); any other is `other`.
 */

/** The label of a model the configuration does not name. */
export const OTHER_MODEL_LABEL = 'other';

/** The label for each model name, given the names the configuration knows. */
export function modelLabeller(known: Iterable<string>): (model: string) => string {
  const names = new Set(known);
  names.delete('*'); // CAIRN_LLM_MODELS' entry for every model names none
  return (model) => (names.has(model) ? model : OTHER_MODEL_LABEL);
}
