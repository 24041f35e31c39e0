/**
 * "And no new request": a held agent must not call the model. Absence can only be observed
 * over a window, so the window is a number of the fake's latencies — long enough that a call
 * started by a step that was not held would have reached the fake several times over.
 */
import type { ScriptedLlm } from '../fake-llm/scripted-llm';

/**
 * Watches the fake for `windowMs` and fails at the first request beyond the `count` already
 * received, naming its caller.
 */
export async function expectNoNewRequests(llm: ScriptedLlm, count: number, windowMs: number): Promise<void> {
  const until = Date.now() + windowMs;
  while (Date.now() < until) {
    const extra = llm.requests.slice(count);
    if (extra.length > 0) {
      const callers = extra.map(
        (r) => `#${r.index} ${r.headers['x-cairn-purpose']}:${r.headers['x-cairn-step'] ?? ''}`,
      );
      throw new Error(`expected no new model request, got ${callers.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
