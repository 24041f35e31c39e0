/** One line saying which LLM a worker talks to, and whether its calls stream — never the key. */
import type { CairnConfig } from '../config/config';

export function describeLlm({ llm }: CairnConfig): string {
  // Whether an endpoint can stream is found out by its first call, which logs it when it cannot.
  const streaming = llm.stream
    ? 'streaming: on (an endpoint that cannot stream is called without, said once when found)'
    : 'streaming: off (CAIRN_LLM_STREAM=off)';
  if (llm.demo) {
    return `LLM: OFFLINE DEMO MODEL (canned answers) — set OPENAI_BASE_URL and/or OPENAI_API_KEY for a real one; ${streaming}`;
  }
  return `LLM: ${llm.model} at ${llm.baseUrl}; ${streaming}`;
}
