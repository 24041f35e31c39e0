/**
 * At worker start, asks the LLM server what it reports about itself — llama.cpp's `GET /props`
 * has the chat template and the context size — and returns the lines to log: notably a warning
 * when the template cannot render tools, since the server then drops them silently and steps
 * "succeed" on plain text. Servers without `/props` (OpenAI, vLLM, Ollama) answer 404: nothing
 * to say. Never fails the worker.
 */
import { z } from 'zod';
import { settingsFor } from '../config/llm-models-config';
import type { CairnConfig } from '../config/config';

const PROBE_TIMEOUT_MS = 3_000;

/** The part of llama.cpp's `/props` answer Cairn reads; every field optional. */
const propsSchema = z.looseObject({
  chat_template: z.string().optional(),
  model_path: z.string().optional(),
  default_generation_settings: z.looseObject({ n_ctx: z.number().optional() }).optional(),
});

/** The server's `/props` URL: beside the OpenAI path (`…/v1` → `…/props`). */
export function propsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/props`;
}

/** What to log about the LLM server; empty when it reports nothing of note. */
export async function probeLlmServer(llm: CairnConfig['llm'], fetchFn: typeof fetch = fetch): Promise<string[]> {
  const lines: string[] = [];
  if (settingsFor(llm.models, llm.model).tools === false) {
    lines.push(
      `WARNING: CAIRN_LLM_MODELS says ${llm.model} takes no tools: steps cannot call tools (not even finish_step)`,
    );
  }
  let body: unknown;
  try {
    const res = await fetchFn(propsUrl(llm.baseUrl), {
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      ...(llm.apiKey ? { headers: { authorization: `Bearer ${llm.apiKey}` } } : {}),
    });
    if (!res.ok) return lines;
    body = await res.json();
  } catch {
    return lines; // no /props, or not JSON: a server that does not report itself
  }
  const props = propsSchema.safeParse(body);
  if (!props.success) return lines;
  const { chat_template: template, default_generation_settings: settings } = props.data;
  const context = settings?.n_ctx;
  lines.push(
    `LLM server reports: context ${context ?? 'unknown'} tokens, chat template ${template ? 'present' : 'none'}`,
  );
  if (template !== undefined && !/tool/i.test(template)) {
    lines.push(
      "WARNING: the LLM server's chat template never mentions tools: it will drop the tools Cairn offers, " +
        'and steps cannot call them. Start llama-server with --jinja and a template that renders tools ' +
        '(see docs/local-models.md).',
    );
  }
  return lines;
}
