/**
 * Cairn's HTTP app with token authentication over a real agent client, for tests that sign
 * people in with API tokens: each person is a tokens-file entry whose token is given in clear.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Client } from '@temporalio/client';
import { AgentClient } from '../../client/agents/agent-client';
import type { Role } from '../../client/http/auth/principal';
import { SessionStore } from '../../client/http/auth/sessions';
import { sha256Hex, TokenTable } from '../../client/http/auth/token-table';
import { createApp, type AppDeps } from '../../client/http/create-app';

/** One signed-in person: the tokens-file entry, with the token itself instead of its digest. */
export interface TokenPerson {
  principal: string;
  name?: string;
  roles: Role[];
  token: string;
}

/** The app, its agents reached through `client` on `taskQueue`, authenticating `people`; `extra` adds dependencies. */
export function tokenApp(
  client: Client,
  taskQueue: string,
  people: TokenPerson[],
  extra: Partial<AppDeps> = {},
): OpenAPIHono {
  const tokens = new TokenTable(people.map(({ token, ...entry }) => ({ ...entry, tokenSha256: sha256Hex(token) })));
  return createApp({
    version: 'test',
    temporalHealthy: () => Promise.resolve(true),
    agents: new AgentClient(client, taskQueue),
    auth: { mode: 'tokens', tokens, sessions: new SessionStore() },
    ...extra,
  });
}
