/**
 * "And nothing changed": a rejected answer must leave the agent exactly as it was — the
 * interaction still open and unanswered, the same phase, plan, steps and timeline, and no new
 * call to the model. Tests wrap the rejecting call in `expectNothingChanged`, reading the state
 * through whatever path they exercise (the workflow query, the client library, HTTP).
 */
import type { AgentState } from '../../workflows/model/agent/agent-state';
import type { ScriptedLlm } from '../fake-llm/scripted-llm';

/**
 * Reads the state, runs `reject` (which must be refused), reads it again and checks that
 * nothing moved; returns what `reject` returned (typically the rejection's message).
 */
export async function expectNothingChanged<T>(
  read: () => Promise<AgentState>,
  llm: ScriptedLlm,
  interactionId: string,
  reject: () => Promise<T>,
): Promise<T> {
  const before = await read();
  const requests = llm.requests.length;
  const outcome = await reject();
  const after = await read();
  const interaction = after.interactions.find((i) => i.id === interactionId);
  expect(interaction?.status).toBe('open');
  expect(interaction?.answer).toBeUndefined();
  expect(after).toEqual(before);
  expect(llm.requests).toHaveLength(requests);
  return outcome;
}
