/**
 * `cairn ls`, `show`, `watch`, `answer`, `cancel`, `pause` and `resume`: thin commands over the
 * client library — or, with CAIRN_API_URL set, over Cairn's HTTP API with CAIRN_TOKEN
 * (cairn-api.ts). Each resolves with its exit code (see cli-exit.ts).
 */
import { loadConfigOrExit } from '../../../config/load-config-or-exit';
import type { AgentPhase, AgentState } from '../../../workflows/model/agent/agent-state';
import { AGENT_PHASES, isTerminalPhase } from '../../../workflows/model/state/agent-phases';
import { AgentClient, type AgentVersion } from '../agent-client';
import { auditOf, type AuditEntry } from '../audit-entries';
import { ClientError } from '../../client-error';
import { followTimeline } from '../follow-timeline';
import { followLiveOverHttp } from '../../live/cli/live-over-http';
import { LIVE_TAIL_MS, liveFromTemporal, settledWithin, type LiveFollower } from '../../live/cli/live-follow';
import { LivePrinter } from '../../live/cli/live-printer';
import { parseAnswerArgument, resolveAnswer } from './answer-shorthand';
import { CairnApi, cliApi } from '../../cli/cairn-api';
import { answerOverHttp } from './http-answer';
import { cliLog } from '../../cli/cli-log';
import { EXIT, UsageError, exitCodeOf } from '../../cli/cli-exit';
import { formatAgentList, formatEvent, formatState } from './render';
import { formatGraphPath } from '../../graphs/cli/render-graph';
import { withAnswer } from '../final-answer';
import { printError, printLine } from '../../cli/terminal';
import type { StepTranscript } from '../../../workflows/contract/step-transcript';

/** The phases `--phase` accepts. */
export const PHASES: readonly AgentPhase[] = AGENT_PHASES;

/** Runs `body` with a connected client, closing it afterwards. */
async function withClient<T>(body: (client: AgentClient) => Promise<T>): Promise<T> {
  const client = await AgentClient.connect(loadConfigOrExit());
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

/** `cairn ls`: agents, newest first, by phase and/or waiting for input. */
export function listCommand(options: { phase?: string; waiting?: boolean; json?: boolean }): Promise<number> {
  const phase = options.phase;
  if (phase !== undefined && !PHASES.some((p) => p === phase)) {
    throw new UsageError(`--phase must be one of ${PHASES.join(', ')}; got "${phase}"`);
  }
  const filter = {
    ...(phase !== undefined ? { phase: phase as AgentPhase } : {}),
    ...(options.waiting ? { awaitingInput: true } : {}),
  };
  return withAgents(async (agents) => {
    const list = await agents.list(filter);
    printLine(options.json ? JSON.stringify(list, null, 2) : formatAgentList(list));
    return EXIT.ok;
  });
}

/**
 * What the read-and-control commands call: the HTTP API (CAIRN_API_URL set, CAIRN_TOKEN sent)
 * or the client library straight to Temporal.
 */
interface Agents {
  list: CairnApi['list'];
  state(id: string, afterSeq?: number): Promise<AgentState>;
  /** The whole state and the version the agent runs on (the API serves both in one read). */
  show(id: string): Promise<{ state: AgentState; version?: AgentVersion | undefined }>;
  audit(id: string): Promise<AuditEntry[]>;
  transcript(id: string, stepId: string): Promise<StepTranscript>;
  cancel(id: string): Promise<void>;
  hold(action: 'pause' | 'resume', id: string, request: { by?: string; reason?: string }): Promise<void>;
  /** Follows the agent's live output (docs/contracts.md#live-output); returns the function that stops it. */
  live: LiveFollower;
}

/** Runs `body` with the API when CAIRN_API_URL is set, else with a connected client. */
export async function withAgents<T>(body: (agents: Agents) => Promise<T>): Promise<T> {
  const target = cliApi();
  if (target) {
    const api = new CairnApi(target);
    return body({
      list: (filter) => api.list(filter),
      state: (id, afterSeq) => api.state(id, afterSeq),
      show: async (id) => {
        const { version, ...state } = await api.state(id);
        return { state, version };
      },
      audit: (id) => api.audit(id),
      transcript: (id, stepId) => api.transcript(id, stepId),
      cancel: (id) => api.cancel(id),
      hold: (action, id, request) => api.hold(action, id, request),
      live: (id, listener, notice) => followLiveOverHttp(target, id, listener, notice),
    });
  }
  return withClient((client) =>
    body({
      list: (filter) => client.list(filter),
      state: (id, afterSeq) => client.state(id, afterSeq),
      show: async (id) => ({ state: await client.state(id), version: await client.version(id) }),
      audit: async (id) => auditOf(await client.state(id)),
      transcript: (id, stepId) => client.transcript(id, stepId),
      cancel: (id) => client.cancel(id),
      hold: (action, id, request) => client[action](id, request),
      live: liveFromTemporal(client),
    }),
  );
}

/** `cairn show <id>`: the agent's state. */
export function showCommand(id: string, options: { json?: boolean }): Promise<number> {
  return withAgents(async (agents) => {
    const { state, version } = await agents.show(id);
    const on = version ? `version: ${version.buildId} (deployment ${version.deploymentName}, ${version.behavior})` : '';
    printLine(
      options.json
        ? JSON.stringify({ id, ...withAnswer(state), ...(version ? { version } : {}) }, null, 2)
        : [formatState(id, state), ...(on ? [on] : [])].join('\n'),
    );
    return EXIT.ok;
  });
}

/** The options of `cairn watch` as commander parses them (`--no-live` sets `live: false`). */
export interface WatchOptions {
  json?: boolean;
  live?: boolean;
  reasoning?: boolean;
}

/**
 * `cairn watch <id>`: timeline events until the agent ends, with the model's words printed as
 * they form (not under `--json` or `--no-live`), then a graph agent's path; exits like `run` by how it ended.
 */
export function watchCommand(id: string, options: WatchOptions): Promise<number> {
  return withAgents(async (agents) => {
    const printer = options.json || options.live === false ? undefined : new LivePrinter('out', options);
    const stopLive = printer ? agents.live(id, printer, (message) => printError(message)) : () => {};
    try {
      for await (const state of followTimeline((after) => agents.state(id, after), { intervalMs: 500 })) {
        for (const event of state.events) {
          if (options.json) printLine(JSON.stringify(event));
          else if (printer) printer.line(formatEvent(event));
          else printLine(formatEvent(event));
        }
      }
      if (printer) await settledWithin(printer.ended, LIVE_TAIL_MS);
    } finally {
      stopLive();
    }
    const final = await agents.state(id, Number.MAX_SAFE_INTEGER);
    // A graph agent's path: which nodes ran, in which visit's step, and why each edge was taken.
    const path = options.json ? undefined : formatGraphPath(final);
    if (path !== undefined) printLine(path);
    return isTerminalPhase(final.phase) ? exitCodeOf(final.phase) : EXIT.ok;
  });
}

/**
 * `cairn answer <id> <interactionId> '<json>' | <word>` (answer-shorthand.ts): by update (the verdict at once) or, with
 * `--signal`, fire-and-forget. A `tool.approval` answer without `digest` gets the open one's.
 */
export function answerCommand(
  id: string,
  interactionId: string,
  json: string,
  options: { by?: string; signal?: boolean },
): Promise<number> {
  const argument = parseAnswerArgument(json);
  const api = cliApi();
  if (api) return answerOverHttp(api, id, interactionId, argument, options.by);
  return withClient(async (client) => {
    const interaction = (await client.state(id, Number.MAX_SAFE_INTEGER)).interactions.find(
      (i) => i.id === interactionId,
    );
    const answer = resolveAnswer(argument, interaction, interactionId);
    const input = { interactionId, answer, ...(options.by ? { by: options.by } : {}) };
    try {
      await client.answer(id, input, options.signal ? 'signal' : 'update');
    } catch (err) {
      const line = err instanceof ClientError ? refusalLine(interactionId, err) : undefined;
      if (line === undefined) throw err;
      cliLog().error(line);
      return EXIT.failed;
    }
    printLine(options.signal ? `answer to ${interactionId} sent` : `answer to ${interactionId} accepted`);
    return EXIT.ok;
  });
}

/** What `cairn answer` prints for a refused answer, by its code; `undefined` for other errors. */
function refusalLine(interactionId: string, err: ClientError): string | undefined {
  if (err.code === 'NOT_OPEN') return `${interactionId} is not open: ${err.message}`;
  if (err.code !== 'INVALID_ANSWER') return undefined;
  return `answer to ${interactionId} rejected${err.field ? ` (${err.field})` : ''}: ${err.message}`;
}

/** `cairn cancel <id>`: requests cancellation; running steps stop, finished work is kept. */
export function cancelCommand(id: string): Promise<number> {
  return withAgents(async (agents) => {
    await agents.cancel(id);
    printLine(`cancellation of ${id} requested`);
    return EXIT.ok;
  });
}

/**
 * `cairn pause <id>` / `cairn resume <id>`: no new model or tool call starts in the agent's tree
 * until resumed; open questions stay answerable. An agent that has ended is refused (exit 1).
 */
export function holdCommand(action: 'pause' | 'resume', id: string, options: { by?: string; reason?: string }) {
  return withAgents(async (agents) => {
    const request = {
      ...(options.by !== undefined ? { by: options.by } : {}),
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
    };
    await agents.hold(action, id, request);
    printLine(`${action} of ${id} requested`);
    return EXIT.ok;
  });
}
