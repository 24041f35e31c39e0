/**
 * `cairn answer` through Cairn's HTTP API instead of straight to Temporal: with CAIRN_API_URL
 * set, the CLI sends `Authorization: Bearer $CAIRN_TOKEN` (and says it is the CLI), so the answer
 * passes authentication and its role check, and the audit record names the token's principal
 * with method `cli` (docs/operations.md#authentication-and-roles). Straight to Temporal, an
 * answer is recorded as `temporal-signal`.
 */
import { z } from 'zod';
import type { AgentState } from '../../workflows/agent/agent-state';
import { issueLines } from '../../workflows/issue-lines';
import { completeAnswer } from './answer-source';
import { EXIT } from './cli-exit';

const cliApiSchema = z.object({
  CAIRN_API_URL: z.url({
    protocol: /^https?$/,
    error: 'expected the Cairn server URL, e.g. https://cairn.example.com',
  }),
  CAIRN_TOKEN: z.string().trim().min(1).optional(),
});

/** The server and token the CLI talks to, or undefined when CAIRN_API_URL is unset (Temporal directly). */
export function cliApi(
  env: Record<string, string | undefined> = process.env,
): { url: string; token?: string } | undefined {
  if (!env.CAIRN_API_URL) return undefined;
  const parsed = cliApiSchema.safeParse({
    CAIRN_API_URL: env.CAIRN_API_URL,
    CAIRN_TOKEN: env.CAIRN_TOKEN || undefined,
  });
  if (!parsed.success)
    throw new Error(`Invalid configuration: ${issueLines(parsed.error, '(environment)').join('; ')}`);
  const { CAIRN_API_URL: url, CAIRN_TOKEN: token } = parsed.data;
  return { url: url.replace(/\/+$/, ''), ...(token ? { token } : {}) };
}

const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

/** One request to the API; resolves to the JSON body, or the coded error as a line to print. */
async function call(api: { url: string; token?: string }, path: string, body?: unknown) {
  const headers: Record<string, string> = { accept: 'application/json', 'x-cairn-client': 'cli' };
  if (api.token) headers.authorization = `Bearer ${api.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${api.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json: unknown = await res.json().catch(() => ({}));
  if (res.ok) return { ok: true as const, json };
  const error = errorBody.safeParse(json);
  const detail = error.success ? error.data.error : { code: 'HTTP_ERROR', message: `HTTP ${res.status}` };
  const field = 'field' in detail && detail.field ? ` (${detail.field})` : '';
  return { ok: false as const, line: `${res.status} ${detail.code}${field}: ${detail.message}` };
}

/** Answers `interactionId` of agent `id` over HTTP; prints the verdict and returns the exit code. */
export async function answerOverHttp(
  api: { url: string; token?: string },
  id: string,
  interactionId: string,
  raw: unknown,
  by?: string,
): Promise<number> {
  const agent = `/api/agents/${encodeURIComponent(id)}`;
  const state = await call(api, agent);
  if (!state.ok) {
    console.error(`cannot read ${id}: ${state.line}`);
    return EXIT.failed;
  }
  const interaction = (state.json as AgentState).interactions.find((i) => i.id === interactionId);
  const answer = interaction ? completeAnswer(interaction, raw) : raw;
  const sent = await call(api, `${agent}/answers`, { interactionId, answer, ...(by ? { by } : {}) });
  if (!sent.ok) {
    console.error(`answer to ${interactionId} refused: ${sent.line}`);
    return EXIT.failed;
  }
  console.log(`answer to ${interactionId} accepted`);
  return EXIT.ok;
}
