/**
 * The one place workflow code reads the time. Inside Temporal's workflow sandbox `Date` is the
 * deterministic workflow clock — the start time of the current workflow task, identical on
 * replay — never the machine's clock. Timestamps in agent state come from here.
 */
export function workflowTime(): number {
  return Date.now();
}
