/**
 * Builds the `openai` client for any OpenAI-compatible endpoint from the configuration.
 * Its own retries are off: Temporal's retry policy owns retries, so each attempt is visible.
 */
import OpenAI from 'openai';
import type { CairnConfig } from '../../config/config';

/** An OpenAI client for `config.llm`. The key never leaves the worker process. */
export function createOpenAiClient(llm: Pick<CairnConfig['llm'], 'baseUrl' | 'apiKey' | 'timeoutMs'>): OpenAI {
  return new OpenAI({
    baseURL: llm.baseUrl,
    // Local servers (Ollama, vLLM, llama.cpp) take no key; the client insists on a string.
    apiKey: llm.apiKey ?? 'not-needed',
    timeout: llm.timeoutMs,
    maxRetries: 0,
  });
}
