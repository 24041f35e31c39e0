/** One line saying which LLM a worker talks to — never the key. */
import type { CairnConfig } from '../config/config';

export function describeLlm({ llm }: CairnConfig): string {
  if (llm.demo) {
    return 'LLM: OFFLINE DEMO MODEL (canned answers) — set OPENAI_BASE_URL and/or OPENAI_API_KEY for a real one';
  }
  return `LLM: ${llm.model} at ${llm.baseUrl}`;
}
