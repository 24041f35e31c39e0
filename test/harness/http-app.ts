/**
 * Cairn's HTTP app over a real agent client, as the HTTP tests drive it with `app.request`: the
 * app (authentication off unless `extra` says otherwise), a JSON POST, and an agent's state
 * read through `GET /api/agents/:id`.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Client } from '@temporalio/client';
import { AgentClient } from '../../client/agents/agent-client';
import { createApp, type AppDeps } from '../../client/http/create-app';
import type { AgentState } from '../../workflows/model/agent/agent-state';

/** The app over `agents` (a real client or a stand-in), Temporal reported healthy; `extra` adds or replaces dependencies. */
export function appOver(agents: AppDeps['agents'], extra: Partial<AppDeps> = {}): OpenAPIHono {
  return createApp({ version: 'test', temporalHealthy: () => Promise.resolve(true), agents, ...extra });
}

/** The app, its agents reached through `client` on `taskQueue`; `extra` adds or replaces dependencies. */
export function testApp(client: Client, taskQueue: string, extra: Partial<AppDeps> = {}): OpenAPIHono {
  return appOver(new AgentClient(client, taskQueue), extra);
}

/** POSTs `body` as JSON (or, with no body, nothing). */
export function postJson(
  app: OpenAPIHono,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  if (body === undefined) return Promise.resolve(app.request(path, { method: 'POST', headers }));
  return Promise.resolve(
    app.request(path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );
}

/** The agent's state through `GET /api/agents/:id`; throws on any status but 200. */
export async function stateOverHttp(
  app: OpenAPIHono,
  id: string,
  headers: Record<string, string> = {},
): Promise<AgentState> {
  const res = await app.request(`/api/agents/${encodeURIComponent(id)}`, { headers });
  if (res.status !== 200) throw new Error(`state of ${id}: ${res.status}`);
  return (await res.json()) as AgentState;
}
