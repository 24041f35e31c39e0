/**
 * The CLI's client of Cairn's HTTP API: with CAIRN_API_URL set, every `cairn` command that reads
 * or changes agents (`ls`, `show`, `watch`, `run`, `answer`, `cancel`, `pause`, `resume`,
 * `audit`, `graphs`, `chat`) goes through the server instead of straight to Temporal, sending
 * `Authorization: Bearer $CAIRN_TOKEN` and saying it is the CLI — so each request passes
 * authentication and its role check, and what it changes is audited under the token's
 * principal with method `cli` (docs/operations.md#authentication-and-roles). A refusal throws
 * `ApiRefusal` with the server's status, code and message.
 */
import { openAsBlob } from 'node:fs';
import { z } from 'zod';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import type { AgentResult } from '../../workflows/model/agent/agent-contract';
import type { AnswerInput } from '../../workflows/model/interactions/interaction-types';
import { issueLines } from '../../workflows/base/issue-lines';
import type { AnswerAccepted, HoldRequest } from '../../workflows/contract/messages';
import { isTerminalPhase } from '../../workflows/model/state/agent-phases';
import type { AgentSummary, AgentVersion, ListFilter } from '../agents/agent-client';
import { auditEntrySchema, type AuditEntry } from '../agents/audit-entries';
import { stepTranscriptSchema, type StepTranscript } from '../../workflows/contract/step-transcript';
import { ClientError, type ClientErrorCode } from '../client-error';
import { pause } from '../agents/follow-timeline';
import { threadViewSchema, type SendInput, type ThreadView } from '../../workflows/contract/thread-contract';
import type { RegisteredGraph } from '../graphs/graph-registry';
import type { DefinitionSummary } from '../definitions/definition-summary';
import type { AgentStart } from '../definitions/resolve-definition';
import { toolInfoSchema, type ToolInfo } from '../../workflows/model/tools/tool-types';
import type { ApiTarget } from './api-target';

export { cliApi, type ApiTarget } from './api-target';

const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

/** The server refused a request: its status and coded error, printed as `<status> <code> (<field>): <message>`. */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly field?: string,
  ) {
    super(`${status} ${code}${field ? ` (${field})` : ''}: ${detail}`);
    this.name = 'ApiRefusal';
  }
}

/** The refusals a caller of the client library handles by code (a rejected answer, a closed interaction). */
const CLIENT_CODES: ReadonlySet<string> = new Set<ClientErrorCode>(['INVALID_ANSWER', 'NOT_OPEN']);

const listBody = z.object({ agents: z.array(z.looseObject({ id: z.string(), phase: z.string() })) });
const stateBody = z.looseObject({
  phase: z.string(),
  events: z.array(z.looseObject({ seq: z.number() })),
  interactions: z.array(z.looseObject({ id: z.string() })),
});
const idBody = z.object({ id: z.string() });
const recordedBody = z.object({ messageId: z.string() });
const recordedOpen = recordedBody.extend({ id: z.string() });
/** A message the thread has recorded: its id. */
export type MessageRecorded = z.infer<typeof recordedBody>;
/** A message as the CLI sends it (the server sets who from the token). */
export type ChatMessageBody = Pick<SendInput, 'text' | 'kind' | 'policy' | 'mode'>;

/** A local file to upload: where it is and the name it goes by. */
export interface LocalPath {
  path: string;
  name: string;
}

/**
 * `body` as it is, or with files a multipart form: the body as the `input` part, each file as a
 * part with its name (stored by the server as `inputs/<name>`).
 */
async function withFiles(body: unknown, files: readonly LocalPath[]): Promise<unknown> {
  if (files.length === 0) return body;
  const form = new FormData();
  form.append('input', new Blob([JSON.stringify(body)], { type: 'application/json' }));
  // Blobs backed by the files: read as the request is sent, not held in memory first.
  for (const file of files) form.append('file', await openAsBlob(file.path), file.name);
  return form;
}
const auditBody = z.object({ id: z.string(), entries: z.array(auditEntrySchema) });
const acceptedBody = z.looseObject({ interactionId: z.string() });
const graphsBody = z.object({
  graphs: z.array(
    z.looseObject({
      name: z.string(),
      description: z.string().optional(),
      graph: z.looseObject({ nodes: z.array(z.unknown()) }),
    }),
  ),
});

const toolsBody = z.object({ tools: z.array(toolInfoSchema) });
const definitionsBody = z.object({
  definitions: z.array(
    z.looseObject({
      name: z.string(),
      description: z.string(),
      version: z.string(),
      label: z.string().optional(),
    }),
  ),
});

/** Cairn's HTTP API for the CLI. */
export class CairnApi {
  constructor(private readonly target: ApiTarget) {}

  /** Agents, newest first. */
  async list(filter: ListFilter = {}): Promise<AgentSummary[]> {
    const query = new URLSearchParams();
    if (filter.phase) query.set('phase', filter.phase);
    if (filter.awaitingInput !== undefined) query.set('awaitingInput', String(filter.awaitingInput));
    if (filter.limit !== undefined) query.set('limit', String(filter.limit));
    const q = query.size ? `?${query.toString()}` : '';
    return (await this.call('GET', `/api/agents${q}`, listBody)).agents as unknown as AgentSummary[];
  }

  /** The agent's state (with its version when read whole); with `afterSeq` only newer events. */
  async state(id: string, afterSeq?: number): Promise<AgentState & { version?: AgentVersion }> {
    const q = afterSeq === undefined ? '' : `?afterSeq=${afterSeq}`;
    return (await this.call('GET', `${agentPath(id)}${q}`, stateBody)) as unknown as AgentState & {
      version?: AgentVersion;
    };
  }

  /** Every decision on the agent, oldest first. */
  async audit(id: string): Promise<AuditEntry[]> {
    return (await this.call('GET', `${agentPath(id)}/audit`, auditBody)).entries;
  }

  /** What a step's model said each round. */
  async transcript(id: string, stepId: string): Promise<StepTranscript> {
    return this.call('GET', `${agentPath(id)}/steps/${encodeURIComponent(stepId)}/transcript`, stepTranscriptSchema);
  }

  /** The graphs registered on the server (`CAIRN_GRAPHS` there), by name. */
  async graphs(): Promise<RegisteredGraph[]> {
    return (await this.call('GET', '/api/graphs', graphsBody)).graphs as unknown as RegisteredGraph[];
  }

  /** The agent definitions the server knows (`cairn` and `CAIRN_AGENTS` there), by name. */
  async definitions(): Promise<DefinitionSummary[]> {
    return (await this.call('GET', '/api/agent-definitions', definitionsBody)).definitions;
  }

  /** The tools the server's workers offer (`GET /api/tools`). */
  async tools(): Promise<ToolInfo[]> {
    return (await this.call('GET', '/api/tools', toolsBody)).tools;
  }

  /**
   * Starts an agent; the server records the token's principal as who started it. With `files`
   * the start is a multipart upload: the input as the `input` part, each file as a part with its
   * name, stored by the server as `inputs/<name>` in the agent's folder.
   */
  async start(input: AgentStart, files: readonly { path: string; name: string }[] = []): Promise<string> {
    return (await this.call('POST', '/api/agents', idBody, await withFiles(input, files))).id;
  }

  /** Answers by update; a rejected answer or a closed interaction throws ClientError, as the client library does. */
  async answer(id: string, input: AnswerInput): Promise<AnswerAccepted> {
    try {
      return (await this.call('POST', `${agentPath(id)}/answers`, acceptedBody, input)) as unknown as AnswerAccepted;
    } catch (err) {
      if (err instanceof ApiRefusal && CLIENT_CODES.has(err.code))
        throw new ClientError(err.code as ClientErrorCode, err.detail, err.field, { cause: err });
      throw err;
    }
  }

  /**
   * Opens a thread with its first message; the server records the token's principal as its
   * sender. Answers as soon as the thread has recorded the message (`?wait=recorded`): the turn
   * tells how it goes on.
   */
  async openThread(
    message: ChatMessageBody,
    files: readonly LocalPath[] = [],
  ): Promise<{ id: string; messageId: string }> {
    return this.call('POST', '/api/threads?wait=recorded', recordedOpen, await withFiles(message, files));
  }

  /**
   * Sends a message to a thread (with files: uploaded to the thread's folder); answers as soon as
   * the thread has recorded it (`?wait=recorded`).
   */
  async sendMessage(id: string, message: ChatMessageBody, files: readonly LocalPath[] = []): Promise<MessageRecorded> {
    return this.call('POST', `${threadPath(id)}/messages?wait=recorded`, recordedBody, await withFiles(message, files));
  }

  /** A thread and its turns. */
  async thread(id: string): Promise<ThreadView> {
    return this.call('GET', threadPath(id), threadViewSchema);
  }

  /** Requests cancellation, recorded under the token's principal. */
  async cancel(id: string, request: HoldRequest = {}): Promise<void> {
    await this.call('POST', `${agentPath(id)}/cancel`, idBody, request);
  }

  /** Pauses or resumes, recorded under the token's principal. */
  async hold(action: 'pause' | 'resume', id: string, request: HoldRequest = {}): Promise<void> {
    await this.call('POST', `${agentPath(id)}/${action}`, idBody, request);
  }

  /**
   * The agent's result, read from its state once it has ended (the API serves no result route):
   * `completed`, `stopped` and `cancelled` resolve; a failure rejects with the state's error.
   */
  async result(id: string, everyMs = 500): Promise<AgentResult> {
    for (;;) {
      const state = await this.state(id, Number.MAX_SAFE_INTEGER);
      if (isTerminalPhase(state.phase)) {
        if (state.phase === 'failed') throw new Error(state.error ?? `agent "${id}" failed`);
        const status = state.phase === 'completed' ? 'completed' : state.phase === 'stopped' ? 'stopped' : 'cancelled';
        return { status, usage: state.usage, ...(state.result !== undefined ? { answer: state.result } : {}) };
      }
      await pause(everyMs);
    }
  }

  /** One request (a form goes as multipart, anything else as JSON); the JSON body checked by `schema`, or an ApiRefusal. */
  private async call<T>(method: 'GET' | 'POST', path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'x-cairn-client': 'cli' };
    if (this.target.token) headers.authorization = `Bearer ${this.target.token}`;
    // A form sets its own Content-Type, with the boundary.
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.target.url}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: form ? body : JSON.stringify(body) } : {}),
    });
    const json: unknown = await res.json().catch(() => undefined);
    if (!res.ok) {
      const error = errorBody.safeParse(json);
      if (!error.success) throw new ApiRefusal(res.status, 'HTTP_ERROR', `HTTP ${res.status} from ${method} ${path}`);
      throw new ApiRefusal(res.status, error.data.error.code, error.data.error.message, error.data.error.field);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new Error(`${method} ${path}: unexpected response: ${issueLines(parsed.error, '(body)').join('; ')}`);
    return parsed.data;
  }
}

const agentPath = (id: string) => `/api/agents/${encodeURIComponent(id)}`;
const threadPath = (id: string) => `/api/threads/${encodeURIComponent(id)}`;
