/**
 * Named model endpoints, from the JSON in `CAIRN_LLM_ENDPOINTS` (docs/definitions.md#model-endpoints):
 * OpenAI-compatible endpoints besides `default` (OPENAI_BASE_URL, OPENAI_API_KEY, CAIRN_MODEL,
 * CAIRN_LLM_RATE_LIMIT), which an agent definition's `model.endpoint` names. Each has its base
 * URL, the environment variable holding its key (read here, so a missing one stops the process
 * at start), its default model and its own rate limit; a worker serves each on an LLM task queue
 * of its own (workflows/base/llm-task-queue.ts).
 *
 *   [{ "name": "local", "baseUrl": "http://127.0.0.1:8080/v1", "model": "qwen2.5-0.5b" },
 *    { "name": "hosted", "baseUrl": "https://api.openai.com/v1", "apiKeyEnv": "HOSTED_KEY",
 *      "model": "gpt-4o-mini", "ratePerSecond": 5 }]
 *
 * Every bad entry is refused with one line naming it.
 */
import { z } from 'zod';
import { issueLines } from '../workflows/base/issue-lines';
import { DEFAULT_ENDPOINT, ENDPOINT_NAME } from '../workflows/base/llm-task-queue';

const endpointSchema = z.strictObject({
  name: z
    .string()
    .regex(ENDPOINT_NAME, 'expected lower-case letters, digits and -, 1 to 64')
    .refine((name) => name !== DEFAULT_ENDPOINT, `"${DEFAULT_ENDPOINT}" is OPENAI_BASE_URL's; name another`),
  baseUrl: z.url({ error: 'expected an http(s) URL' }),
  /** The environment variable holding its API key (none: the endpoint takes no key). */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
    .optional(),
  /** The model its calls use when an agent names none. */
  model: z.string().trim().min(1),
  /** Calls per second across all workers (as CAIRN_LLM_RATE_LIMIT for `default`). */
  ratePerSecond: z.number().positive().optional(),
  /** Calls at once per worker (as CAIRN_LLM_CONCURRENCY for `default`). */
  concurrency: z.number().int().positive().max(1_000).optional(),
});

/** A named endpoint as configured, its key read from its variable. */
export interface LlmEndpoint {
  name: string;
  baseUrl: string;
  apiKey?: string;
  model: string;
  ratePerSecond?: number;
  concurrency?: number;
}

/** The environment variable holding the list. */
export const llmEndpointsEnvShape = { CAIRN_LLM_ENDPOINTS: z.string().min(1).optional() };

/**
 * Reads and checks the list, each key from `env`, or says what is wrong (one line per problem):
 * a name given twice, or a key variable named but not set, is refused.
 */
export function loadLlmEndpoints(
  text: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): { endpoints: LlmEndpoint[] } | { problems: string[] } {
  if (text === undefined) return { endpoints: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch (err) {
    return { problems: [`CAIRN_LLM_ENDPOINTS: expected JSON, ${err instanceof Error ? err.message : String(err)}`] };
  }
  const parsed = z.array(endpointSchema).max(20).safeParse(raw);
  if (!parsed.success)
    return { problems: issueLines(parsed.error, '(list)').map((line) => `CAIRN_LLM_ENDPOINTS: ${line}`) };
  const problems: string[] = [];
  const seen = new Set<string>();
  const endpoints = parsed.data.map(({ apiKeyEnv, ...endpoint }, i): LlmEndpoint => {
    if (seen.has(endpoint.name)) problems.push(`CAIRN_LLM_ENDPOINTS: ${i}.name: "${endpoint.name}" is named twice`);
    seen.add(endpoint.name);
    const apiKey = apiKeyEnv === undefined ? undefined : env[apiKeyEnv]?.trim();
    if (apiKeyEnv !== undefined && !apiKey)
      problems.push(
        `CAIRN_LLM_ENDPOINTS: ${i}.apiKeyEnv: endpoint "${endpoint.name}" needs ${apiKeyEnv}, which is not set`,
      );
    return { ...endpoint, ...(apiKey ? { apiKey } : {}) };
  });
  return problems.length > 0 ? { problems } : { endpoints };
}
