/**
 * What the HTTP routes need from the client library: the narrow slice of `AgentClient` they
 * call, so the app depends on behaviour, not on a connection.
 */
import type { AgentClient } from './agent-client';

/**
 * The AgentClient methods the routes use; `version` is optional (an app without it serves the
 * state without the Worker Deployment version), and so is `temporal` (the client the live
 * stream route subscribes with; without it, and without a hub of its own, the app has no
 * stream route), and so is `graphs` (the registered graphs `GET /api/graphs` lists; none without it),
 * and so is `definitions` (what `GET /api/agent-definitions` and `GET /v1/models` list; the built-in alone without it),
 * and so is `newAgentId` (without it an upload's agent id carries no task words),
 * and so is `tools` (what `GET /api/tools` lists; 503 without it).
 */
export type AgentsPort = Pick<
  AgentClient,
  'start' | 'state' | 'list' | 'answer' | 'cancel' | 'pause' | 'resume' | 'transcript'
> &
  Partial<Pick<AgentClient, 'version' | 'temporal' | 'graphs' | 'definitions' | 'newAgentId' | 'tools'>>;
